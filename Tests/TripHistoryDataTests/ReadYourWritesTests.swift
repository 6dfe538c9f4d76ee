import Testing
import TripHistoryDomain

@testable import TripHistoryData

/// What a rider's read must see against what the reader replayed, without a database.
@Suite struct ReadYourWritesTests {
    private let alice = RiderID(Int64(1))!
    private let bob = RiderID(Int64(2))!
    private let carol = RiderID(Int64(3))!

    @Test func aReaderThatIsDownOrNoStandbyServesNoRiderRead() {
        let tracker = ReadYourWrites(maximumTrackedRiders: 10)
        #expect(tracker.readerUnusable == .readerDown && !tracker.isReaderUp && tracker.standbyReplayed == nil)
        tracker.replicaSampled(replayed: .end)
        #expect(tracker.readerUnusable == .readerNotStandby && tracker.isReaderUp && tracker.standbyReplayed == nil)
        tracker.replicaSampled(replayed: WALPosition(50))
        #expect(tracker.readerUnusable == nil && tracker.standbyReplayed == WALPosition(50))
        tracker.replicaSampled(replayed: nil)
        #expect(tracker.readerUnusable == .readerDown && tracker.requiredReplay(for: alice) == nil)
    }

    @Test func beforeTheFeedFirstStartsNoRiderReadGoesToTheReader() {
        let tracker = ReadYourWrites(maximumTrackedRiders: 10)
        tracker.replicaSampled(replayed: WALPosition(1_000))
        #expect(tracker.requiredReplay(for: alice) == nil)
        // The listener starts with the writer's position, which the reader must reach first.
        tracker.changeCommitted(riderID: nil, at: WALPosition(1_200))
        #expect(tracker.requiredReplay(for: alice) == nil)
        tracker.replicaSampled(replayed: WALPosition(1_200))
        #expect(tracker.requiredReplay(for: alice) == WALPosition(1_200))
    }

    @Test func aRidersReadWaitsForItsLastWriteAndThenRequiresTheWholeSample() {
        let tracker = ReadYourWrites(maximumTrackedRiders: 10)
        tracker.changeCommitted(riderID: nil, at: WALPosition(10))
        tracker.changeCommitted(riderID: alice, at: WALPosition(100))
        tracker.replicaSampled(replayed: WALPosition(90))
        #expect(tracker.requiredReplay(for: alice) == nil)
        // Another rider with no write of their own may read what the sample has.
        #expect(tracker.requiredReplay(for: bob) == WALPosition(90))
        tracker.replicaSampled(replayed: WALPosition(120))
        // The connection serving the read must have replayed the sample's position, not only the rider's write:
        // the sample dropped the requirement it satisfied.
        #expect(tracker.requiredReplay(for: alice) == WALPosition(120))
        tracker.replicaSampled(replayed: WALPosition(110))
        #expect(tracker.requiredReplay(for: alice) == WALPosition(110))
    }

    @Test func aWriteOfNoKnownRiderAndTooManyRidersRaiseTheFloorOfEveryone() {
        let tracker = ReadYourWrites(maximumTrackedRiders: 1)
        tracker.changeCommitted(riderID: nil, at: WALPosition(10))
        tracker.changeCommitted(riderID: alice, at: WALPosition(100))
        // Bob is one rider too many: his write raises the floor for all, Carol included.
        tracker.changeCommitted(riderID: bob, at: WALPosition(200))
        tracker.replicaSampled(replayed: WALPosition(150))
        #expect(tracker.requiredReplay(for: carol) == nil)
        #expect(tracker.requiredReplay(for: bob) == nil)
        tracker.replicaSampled(replayed: WALPosition(200))
        #expect(tracker.requiredReplay(for: carol) == WALPosition(200))
        // A notification without a rider (the feed restarting) raises it again.
        tracker.changeCommitted(riderID: nil, at: WALPosition(300))
        #expect(tracker.requiredReplay(for: carol) == nil)
        tracker.replicaSampled(replayed: WALPosition(300))
        #expect(tracker.requiredReplay(for: carol) == WALPosition(300))
    }
}
