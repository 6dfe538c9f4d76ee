import Testing

@testable import TripHistoryPresentation

@Suite struct PublishedOnceTests {
    final class Box: Sendable {
        let number: Int

        init(_ number: Int) {
            self.number = number
        }
    }

    @Test func theFirstValueStoredIsTheOneEveryoneGets() {
        let once = PublishedOnce<Box>()
        #expect(once.load() == nil)
        let first = Box(1)
        #expect(once.storeIfNil(first) === first)
        #expect(once.storeIfNil(Box(2)) === first)
        #expect(once.load() === first)
    }

    @Test func racingPublishersAgreeOnOneValue() async {
        for _ in 0..<200 {
            let once = PublishedOnce<Box>()
            let winners = await withTaskGroup(of: Box.self) { group in
                for number in 0..<8 {
                    group.addTask { once.storeIfNil(Box(number)) }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            #expect(winners.count == 8)
            #expect(winners.allSatisfy { $0 === winners[0] })
            #expect(once.load() === winners[0])
        }
    }

    /// The losing candidate is released at once, the published value when the holder goes.
    @Test func nothingLeaks() {
        weak var published: Box?
        weak var losing: Box?
        do {
            let once = PublishedOnce<Box>()
            do {
                let first = Box(1)
                let second = Box(2)
                published = first
                losing = second
                _ = once.storeIfNil(first)
                _ = once.storeIfNil(second)
            }
            #expect(losing == nil)
            #expect(published != nil)
            #expect(once.load()?.number == 1)
        }
        #expect(published == nil)
    }
}
