import Testing
import TripHistoryDomain

@testable import TripHistoryData

/// Read-your-writes on the shards' standbys, without a database: the positions, what each rider's reads must
/// see, the notifications' payloads and the calls. `scripts/test-shards` checks it against real standbys.
@Suite struct ShardStandbyReadsTests {
    private let server = PartitionServer(systemIdentifier: 7_713_464_955_003_889_414, moves: 0)
    private let moved = PartitionServer(systemIdentifier: 7_713_464_955_003_889_999, moves: 1)

    private func position(_ lsn: UInt64, on server: PartitionServer? = nil) -> PartitionPosition {
        PartitionPosition(lsn: WALPosition(lsn), server: server ?? self.server)
    }

    private func rider(_ id: Int64) throws -> RiderID { try #require(RiderID(id)) }

    /// The riders among 1...100 that `placement` puts on `partition`.
    private func riders(on partition: Int, _ placement: RiderPlacement) -> [RiderID] {
        (1...100).compactMap(RiderID.init).filter { placement.partition(of: $0) == partition }
    }

    /// A tracker of 2 partitions that tracks one rider, every partition's floor taken at 10, and partition 0's
    /// first rider committed at 20; with partition 0's riders.
    private func trackingOneRiderAt20() throws -> (ShardReadYourWrites, RiderPlacement, [RiderID]) {
        let placement = try #require(RiderPlacement(partitions: 2))
        let tracker = ShardReadYourWrites(placement: placement, maximumTrackedRiders: 1)
        tracker.floorsTaken([0: position(10), 1: position(10)], epoch: 0)
        let riders = riders(on: 0, placement)
        tracker.committed(riderID: riders[0], at: position(20))
        return (tracker, placement, riders)
    }

    @Test func aPositionRoundTripsThroughItsTextAndRefusesAnythingElse() {
        let position = position(0x3_96FA_D0)
        #expect(position.text == "0/396FAD0 7713464955003889414 0")
        #expect(PartitionPosition(text: position.text) == position)
        for text in ["", "0/396FAD0 7713464955003889414", "x 1 0", "0/1 1 0 9", "0/1 one 0"] {
            #expect(PartitionPosition(text: text) == nil, "\(text)")
        }
    }

    /// The further position of one server, and after a move the new server's, whatever its number: the move
    /// copied everything written before it.
    @Test func theCoveringPositionIsTheFurtherOneOrTheOneAfterMoreMoves() {
        #expect(position(10).covering(position(20)) == position(20))
        #expect(position(20).covering(nil) == position(20))
        #expect(position(900).covering(position(5, on: moved)) == position(5, on: moved))
        #expect(position(5, on: moved).covering(position(900)) == position(5, on: moved))
    }

    @Test func aRidersReadsNeedEveryPartitionsPositionFirstThenTheRidersOwn() throws {
        let placement = try #require(RiderPlacement(partitions: 4))
        let tracker = ShardReadYourWrites(placement: placement)
        let riderID = try rider(40_007)
        let partition = placement.partition(of: riderID)
        #expect(tracker.requirement(for: riderID) == .floorsNeeded(epoch: 0))
        let floors = Dictionary(uniqueKeysWithValues: (0..<4).map { ($0, position(UInt64(100 + $0))) })
        tracker.floorsTaken(floors, epoch: 0)
        #expect(tracker.requirement(for: riderID) == .replayed(position(UInt64(100 + partition))))
        tracker.committed(riderID: riderID, at: position(500))
        tracker.committed(riderID: riderID, at: position(300))
        #expect(tracker.requirement(for: riderID) == .replayed(position(500)))
        // Listening again: every partition's position again, and positions taken for an older epoch are dropped.
        tracker.listeningStarted()
        #expect(tracker.requirement(for: riderID) == .floorsNeeded(epoch: 1))
        tracker.floorsTaken(floors, epoch: 0)
        #expect(tracker.requirement(for: riderID) == .floorsNeeded(epoch: 1))
        tracker.floorsTaken(floors.mapValues { _ in self.position(700) }, epoch: 1)
        #expect(tracker.requirement(for: riderID) == .replayed(position(700)))
    }

    /// While every partition's position cannot be taken (a shard failing over), reads ask for it at most once a
    /// second, and go to the primaries meanwhile.
    @Test func everyPartitionsPositionIsAskedForAtMostOnceASecondUntilTaken() throws {
        let tracker = ShardReadYourWrites(placement: try #require(RiderPlacement(partitions: 2)))
        let start = ContinuousClock.now
        #expect(tracker.mayAskFloors(at: start))
        #expect(!tracker.mayAskFloors(at: start + .milliseconds(500)))
        #expect(tracker.mayAskFloors(at: start + .seconds(1)))
        tracker.floorsTaken([0: position(1), 1: position(1)], epoch: 0)
        #expect(tracker.mayAskFloors(at: start + .seconds(1) + .milliseconds(1)))
    }

    /// A write whose position could not be taken sends the rider's reads to the primaries for good: a later
    /// write's position may have been taken before it committed.
    @Test func aWriteWithoutPositionKeepsTheRiderOnThePrimaries() throws {
        let placement = try #require(RiderPlacement(partitions: 2))
        let tracker = ShardReadYourWrites(placement: placement)
        tracker.floorsTaken([0: position(1), 1: position(1)], epoch: 0)
        let riderID = try rider(12)
        tracker.committed(riderID: riderID, at: nil)
        #expect(tracker.requirement(for: riderID) == .primary)
        tracker.committed(riderID: riderID, at: position(99))
        #expect(tracker.requirement(for: riderID) == .primary)
        // A partition missing from the positions taken is read on its primary.
        tracker.floorsTaken([0: position(1)], epoch: 0)
        let other = try #require(riders(on: 1, placement).first)
        #expect(tracker.requirement(for: other) == .primary)
    }

    /// Past the riders it tracks, a rider's position raises its partition's floor, which every rider there must
    /// then see, and drops the riders whose positions it covers, making room; without a position, every
    /// partition's is taken again.
    @Test func pastTheTrackedRidersARidersPositionRaisesItsPartitionsFloor() throws {
        let (tracker, placement, riders) = try trackingOneRiderAt20()
        tracker.committed(riderID: riders[1], at: position(50))
        #expect(tracker.requirement(for: riders[0]) == .replayed(position(50)))
        #expect(tracker.requirement(for: riders[2]) == .replayed(position(50)))
        let elsewhere = try #require(self.riders(on: 1, placement).first)
        #expect(tracker.requirement(for: elsewhere) == .replayed(position(10)))
        // The floor of 50 covered the rider at 20: the next rider has an entry of its own again.
        tracker.committed(riderID: riders[3], at: position(60))
        #expect(tracker.requirement(for: riders[3]) == .replayed(position(60)))
        #expect(tracker.requirement(for: riders[2]) == .replayed(position(50)))
        tracker.committed(riderID: riders[4], at: nil)
        #expect(tracker.requirement(for: elsewhere) == .floorsNeeded(epoch: 1))
    }

    /// Positions taken when listening restarts drop the riders they cover, too.
    @Test func everyPartitionsPositionTakenAgainDropsTheRidersItCovers() throws {
        let (tracker, _, riders) = try trackingOneRiderAt20()
        tracker.listeningStarted()
        tracker.floorsTaken([0: position(30), 1: position(30)], epoch: 1)
        tracker.committed(riderID: riders[1], at: position(40))
        #expect(tracker.requirement(for: riders[1]) == .replayed(position(40)))
        #expect(tracker.requirement(for: riders[2]) == .replayed(position(30)))
    }

    @Test func aNotificationNamesTheRiderAndThePositionOrUnknownRiders() throws {
        let text = "40007 " + position(0x10).text
        #expect(ShardStandbyReads.announcement(text) == .rider(try rider(40_007), position(0x10)))
        #expect(ShardStandbyReads.announcement("40007") == .rider(try rider(40_007), nil))
        #expect(ShardStandbyReads.announcement("") == .unknownRiders)
        #expect(ShardStandbyReads.announcement("all") == .unknownRiders)
        // The payload a sharded write sends, and the one-node listener's rider in it.
        let notify = NotifyTripChange(riderID: try rider(40_007), detail: position(0x10).text)
        #expect(notify.makeBindings().values == [text])
        #expect(NotifyTripChange(riderID: try rider(40_007)).makeBindings().values == ["40007"])
    }

    @Test func aReadOnAStandbyIsTheStatementsReplayedCallWithThePositionFirst() throws {
        let query = TripPageQuery(riderID: try rider(7), filter: .all, position: nil, fetchLimit: 21)
        let call = ProxyCall(RiderTripsPage(query), replayed: position(0x10))
        #expect(call.prepared.name == "proxy_trips_older_v2_replayed")
        #expect(call.prepared.sql == "SELECT * FROM trips_older_v2_replayed($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)")
        #expect(call.prepared.resultFormat == .binary)
        let bindings = call.makeBindings().values
        #expect(Array(bindings.prefix(3)) == ["0/10", "7713464955003889414", "0"])
        #expect(Array(bindings.dropFirst(3)) == RiderTripsPage(query).makeBindings().values)
    }
}
