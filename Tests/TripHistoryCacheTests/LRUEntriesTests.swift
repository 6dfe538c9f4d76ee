import Testing

@testable import TripHistoryCache

/// The list behind the response cache, driven by random touches, inserts, removals and evictions against a
/// plain array kept in recency order: any slip in relinking, slot reuse or byte accounting shows as a
/// different order, a wrong entry or a wrong total.
@Suite struct LRUEntriesTests {
    private static func entry(_ value: Int) -> LRUEntries<Int>.Entry {
        LRUEntries<Int>.Entry(value: value, generation: 0, expires: .now, cost: value % 7 + 1)
    }

    @Test func randomOperationsKeepTheOrderEntriesAndBytesOfAPlainList() {
        var entries = LRUEntries<Int>()
        // Keys from most to least recently used, with their values.
        var model: [(key: String, value: Int)] = []
        var random = SplitMix64(state: 7)
        for step in 0..<5_000 {
            let key = "k\(Int.random(in: 0..<40, using: &random))"
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<4:
                let found = entries.touch(key)
                if let index = model.firstIndex(where: { $0.key == key }) {
                    #expect(found?.value == model[index].value)
                    model.insert(model.remove(at: index), at: 0)
                } else {
                    #expect(found == nil)
                }
            case 4..<8:
                entries.insert(key, Self.entry(step))
                model.removeAll { $0.key == key }
                model.insert((key, step), at: 0)
            case 8:
                let removed = entries.remove(key)
                let index = model.firstIndex(where: { $0.key == key })
                #expect(removed?.value == index.map { model[$0].value })
                if let index { model.remove(at: index) }
            default:
                #expect(entries.removeOldest() == model.popLast()?.key)
            }
            #expect(entries.keysNewestFirst == model.map(\.key))
            #expect(entries.count == model.count)
            #expect(entries.bytes == model.reduce(0) { $0 + Self.entry($1.value).cost })
            #expect(entries.oldestEntry?.key == model.last?.key)
            if entries.keysNewestFirst != model.map(\.key) { break }
        }
    }
}
