import Synchronization
import TripHistoryDataTestSupport
import TripHistoryDomain

@testable import TripHistoryData

/// A value shared by concurrent tasks.
final class Shared<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>
    init(_ value: Value) { mutex = Mutex(value) }
    var value: Value { mutex.withLock { $0 } }
    func update(_ body: (inout Value) -> Void) { mutex.withLock { body(&$0) } }
}

/// Writers that take their places in a changes feed in another order than they began: each records a trip,
/// waits a random time, writes the trip's feed entry, waits again and commits; one transaction in twenty rolls
/// back instead. The feed tests follow a feed beside them and check that each committed change is read once.
enum ConcurrentChangeWriters {
    /// What the writers left: the trips whose changes committed, and the newest writing transaction's id.
    struct Outcome: Sendable {
        let committed: [TripID]
        let newestTransaction: UInt64
    }

    /// Runs one writer per element of `riders` (a rider may repeat), each until `perWriter` of its changes
    /// committed, beside `follow`, which gets a closure that tells whether the writers are all done and must
    /// return the trips it read. Returns the writers' outcome and what `follow` read.
    static func run(
        pool: PostgresConnectionPool, riders: [RiderID], perWriter: Int,
        follow: @escaping @Sendable (_ writersDone: @escaping @Sendable () -> Outcome?) async throws -> [TripID]
    ) async throws -> (outcome: Outcome, seen: [TripID]) {
        let committed = Shared<[TripID]>([])
        let newest = Shared<UInt64>(0)
        let writing = Shared(riders.count)
        let outcome = { @Sendable () -> Outcome? in
            writing.value == 0 ? Outcome(committed: committed.value, newestTransaction: newest.value) : nil
        }
        let seen = try await withThrowingTaskGroup(of: [TripID].self) { group in
            for rider in riders {
                let base = try dataTestTrip(rider: rider, requestedAtMicros: 1_767_225_600_000_000)
                group.addTask {
                    defer { writing.update { $0 -= 1 } }
                    var written = 0
                    while written < perWriter {
                        let rollBack = Int.random(in: 0..<20) == 0
                        let (before, after) = (Double.random(in: 0...0.002), Double.random(in: 0...0.0005))
                        do {
                            let (id, xid) = try await pool.withConnection { connection in
                                try connection.transaction { connection -> (TripID, UInt64) in
                                    let id = try connection.executeFirst(InsertTrip(trip: base))!.id
                                    let xid =
                                        try connection.query("SELECT pg_current_xact_id()::text")
                                        .string(0, 0).flatMap { UInt64($0) } ?? 0
                                    _ = try connection.query("SELECT pg_sleep(\(before))")
                                    try connection.execute(
                                        InsertTripChange(riderID: rider, tripID: id, change: .upsert))
                                    _ = try connection.query("SELECT pg_sleep(\(after))")
                                    if rollBack { throw CancellationError() }
                                    return (id, xid)
                                }
                            }
                            committed.update { $0.append(id) }
                            newest.update { $0 = max($0, xid) }
                            written += 1
                        } catch is CancellationError {
                            continue
                        }
                    }
                    return []
                }
            }
            group.addTask { try await follow(outcome) }
            return try await group.reduce(into: [TripID]()) { $0 += $1 }
        }
        return (Outcome(committed: committed.value, newestTransaction: newest.value), seen)
    }
}
