import Foundation
import Synchronization
import Testing
import TripHistoryDataTestSupport
import TripHistoryDomain

@testable import TripHistoryData

/// The analysts' feed of every rider's changes on PostgreSQL. Other suites write changes beside these tests,
/// so each test follows the whole feed and keeps the changes of its own riders' trips.
@Suite struct DataAnalystChangesTests {
    /// Recorded, adjusted and erased: the feed after a position taken before shows the erasure of each trip,
    /// after the upserts that came before it.
    @Test func recordedAndErasedTripsAppearInTheOrderTheyHappened() async throws {
        try await DataTestDatabase.withPool { pool in
            let trips = PostgresTripRepository(pool: pool)
            let analyst = PostgresAnalystTripRepository(pool: pool)
            let rider = DataTestDatabase.randomRiderID()
            let start = try await analyst.currentChangePosition()
            #expect(start.node?.riderID == 0 && start.node?.sequence == 0)
            let first = try await trips.record(
                try dataTestTrip(rider: rider, requestedAtMicros: 1_767_225_600_000_000), idempotency: nil
            ).trip
            let second = try await trips.record(
                try dataTestTrip(rider: rider, requestedAtMicros: 1_767_229_200_000_000), idempotency: nil
            ).trip
            let ours: Set = [first.id, second.id]
            let before = try await Self.follow(
                analyst, from: start, trips: ours, until: [.upsert(first.listRow), .upsert(second.listRow)])
            #expect(before.changes.map(\.tripID) == [first.id, second.id])
            #expect(
                before.changes.allSatisfy { if case .upsert(let trip) = $0 { trip.riderID == rider } else { false } })
            _ = try await trips.erase(riderID: rider, requestedBy: "privacy-desk")
            let erased: [TripChange] = [.erased(first.id), .erased(second.id)]
            let after = try await Self.follow(analyst, from: before.next, trips: ours, until: erased)
            #expect(after.changes == [.erased(first.id), .erased(second.id)])
            // Read from the start again: each trip once, at its last change, which is its erasure.
            let all = try await Self.follow(analyst, from: start, trips: ours, until: erased)
            #expect(all.changes == [.erased(first.id), .erased(second.id)])
        }
    }

    /// Writers of eight riders write their changes in another order than they commit them, hold their
    /// transactions open for random times, and some roll back; a reader follows the analysts' feed
    /// meanwhile. Every committed change must be read exactly once, none that rolled back.
    @Test func theFeedNeverSkipsNorRepeatsAChangeUnderConcurrentWriters() async throws {
        try await DataTestDatabase.withPool(size: 10, acquireTimeout: .seconds(60), statementTimeout: .seconds(30)) {
            pool in
            let analyst = PostgresAnalystTripRepository(pool: pool)
            let writers = 8
            let perWriter = 1_250
            let riders = (0..<writers).map { _ in DataTestDatabase.randomRiderID() }
            let start = try await analyst.currentChangePosition()
            let (outcome, seen) = try await ConcurrentChangeWriters.run(
                pool: pool, riders: riders, perWriter: perWriter
            ) { writersDone in
                var position = start
                var seen: [TripID] = []
                let ours = Set(riders)
                while true {
                    // Once the writers are done, a read that starts after every transaction older than their
                    // newest has ended (other suites' included) hands out all that is left.
                    let done = writersDone()
                    let now = done == nil ? nil : try await analyst.currentChangePosition().node
                    let page = try await analyst.changes(after: position, limit: 200)
                    #expect(try #require(page.next.node) >= (try #require(position.node)))
                    position = page.next
                    for case .upsert(let trip) in page.changes where ours.contains(trip.riderID) {
                        seen.append(trip.id)
                    }
                    if let now, let done, now.transaction > done.newestTransaction, !page.hasMore { return seen }
                    // A follower that has caught up waits a moment instead of spinning on the two cores.
                    if !page.hasMore { try await Task.sleep(for: .milliseconds(5)) }
                }
            }
            let expected = outcome.committed
            #expect(expected.count == writers * perWriter)
            #expect(seen.count == expected.count, "read \(seen.count) changes for \(expected.count) commits")
            #expect(Set(seen).count == seen.count, "\(seen.count - Set(seen).count) changes repeated")
            #expect(Set(seen) == Set(expected), "\(Set(expected).subtracting(seen).count) changes skipped")
        }
    }

    /// A change is held back while an older transaction is still running, and handed out once it ends.
    @Test func aChangeWaitsBehindAnOlderTransactionStillRunning() async throws {
        try await DataTestDatabase.withPool(size: 4) { pool in
            let trips = PostgresTripRepository(pool: pool)
            let analyst = PostgresAnalystTripRepository(pool: pool)
            let rider = DataTestDatabase.randomRiderID()
            let start = try await analyst.currentChangePosition()
            let blocker = try PostgresConnection(connectionString: try DataTestDatabase.connectionString())
            // A transaction that has its id (it wrote) and stays open.
            _ = try blocker.query("BEGIN")
            _ = try blocker.query("SELECT pg_current_xact_id()")
            let trip = try await trips.record(
                try dataTestTrip(rider: rider, requestedAtMicros: 1_767_225_600_000_000), idempotency: nil
            ).trip
            let held = try await analyst.changes(after: start, limit: 200)
            #expect(!held.changes.contains { $0.tripID == trip.id }, "a younger transaction's change is held back")
            _ = try blocker.query("COMMIT")
            let released = try await Self.follow(
                analyst, from: held.next, trips: [trip.id], until: [.upsert(trip.listRow)])
            #expect(released.changes.map(\.tripID) == [trip.id])
        }
    }

    /// Reads the feed from `position` until it has handed out the last change of each of `trips` that
    /// `expected` names, keeping those changes (each trip at its last one). Other suites' transactions may
    /// hold changes back for a moment, so an exhausted feed is read again, for up to ten seconds.
    private static func follow(
        _ analyst: PostgresAnalystTripRepository, from position: AnalystFeedPosition, trips: Set<TripID>,
        until expected: [TripChange]
    ) async throws -> AnalystChangePage {
        var position = position
        var changes: [TripChange] = []
        let deadline = ContinuousClock.now + .seconds(10)
        while true {
            let page = try await analyst.changes(after: position, limit: 200)
            for change in page.changes where trips.contains(change.tripID) {
                changes.removeAll { $0.tripID == change.tripID }
                changes.append(change)
            }
            position = page.next
            if !page.hasMore {
                if changes == expected || ContinuousClock.now > deadline {
                    return AnalystChangePage(changes: changes, next: position, hasMore: false)
                }
                try await Task.sleep(for: .milliseconds(20))
            }
        }
    }
}
