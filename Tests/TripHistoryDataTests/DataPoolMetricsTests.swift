import Foundation
import Metrics
import MetricsTestKit
import Testing
import TripHistoryDataTestSupport

@testable import TripHistoryData

/// A pool's queue as metrics: callers that waited, callers shed at once or after the acquire timeout, and
/// the callers waiting now, which the dashboard's pool panels read.
@Suite struct DataPoolMetricsTests {
    @Test func waitsShedsAndTheWaitingCountAreRecorded() async throws {
        try await DataTestDatabase.withPool { _ in
            let metrics = TestMetrics()
            let pool = PostgresConnectionPool(
                configuration: .init(
                    // Long enough that the waiter is still waiting while the checks below run on a busy
                    // machine; it times out only after them.
                    connectionString: try DataTestDatabase.connectionString(), size: 1,
                    acquireTimeout: .seconds(5), maximumWaiters: 1),
                name: "test", metricsFactory: metrics
            ).running()
            let dimensions = [("pool", "test"), ("queue", "connections")]
            let waits = try metrics.expectCounter("trip_history_db_pool_waits_total", dimensions)
            let full = try metrics.expectCounter("trip_history_db_pool_shed_total", dimensions + [("reason", "full")])
            let timeout = try metrics.expectCounter(
                "trip_history_db_pool_shed_total", dimensions + [("reason", "timeout")])
            let waiting = try metrics.expectGauge("trip_history_db_pool_waiting", dimensions)

            let release = DispatchSemaphore(value: 0)
            let holder = Task { try await pool.withConnection { _ in release.wait() } }
            try await DataPoolTests.eventually { pool.counts.open == 1 && pool.counts.idle == 0 }
            #expect(waits.totalValue == 0, "a caller that found a connection did not wait")

            let waiter = Task { try await pool.withConnection { _ in 1 } }
            try await DataPoolTests.eventually { pool.waiting == 1 }
            #expect(waits.totalValue == 1)
            try await DataPoolTests.eventually { waiting.lastValue == 1 }
            await #expect(throws: PostgresPoolError.overloaded) { try await pool.withConnection { _ in 2 } }
            #expect(full.totalValue == 1)
            #expect(waits.totalValue == 1, "the refused caller never waited")

            // The holder keeps the only connection, so the waiter can only time out.
            await #expect(throws: PostgresPoolError.acquireTimeout) { try await waiter.value }
            #expect(timeout.totalValue == 1)
            try await DataPoolTests.eventually { waiting.lastValue == 0 }

            release.signal()
            try await holder.value
            #expect(try await pool.withConnection { try $0.query("SELECT 3").int64(0, 0) } == 3)
            #expect(waits.totalValue == 1 && full.totalValue == 1 && timeout.totalValue == 1)
            await pool.shutdown()
        }
    }

    @Test func statementsCommitsAndWaitsAreTimed() async throws {
        try await DataTestDatabase.withPool { _ in
            let metrics = TestMetrics()
            let pool = PostgresConnectionPool(
                // The waiter below must get the connection, however busy the machine.
                configuration: .init(
                    connectionString: try DataTestDatabase.connectionString(), size: 1, acquireTimeout: .seconds(60)),
                name: "test", metricsFactory: metrics
            ).running()
            func statement(_ name: String) throws -> TestTimer {
                try metrics.expectTimer("trip_history_db_statement_seconds", [("pool", "test"), ("statement", name)])
            }

            // A prepared statement and a commit on a lent connection, a pipelined read on another.
            _ = try await pool.withConnection { connection in
                try connection.transaction { try $0.executeFirst(ReplayPosition()) }
            }
            _ = try await pool.readFirst(ReplayPosition())
            #expect(try statement(ReplayPosition.name).values.count == 2)
            #expect(try statement("commit").values.count == 1)
            #expect(try statement(ReplayPosition.name).values.allSatisfy { $0 > 0 })
            let pipelinedWaits = try metrics.expectTimer(
                "trip_history_db_pool_wait_seconds", [("pool", "test"), ("queue", "pipelined")])
            #expect(pipelinedWaits.values.count == 1, "every pipelined read queues")

            // A caller that finds the one connection lent waits, and that wait is timed once it gets it.
            let release = DispatchSemaphore(value: 0)
            let holder = Task { try await pool.withConnection { _ in release.wait() } }
            try await DataPoolTests.eventually { pool.counts.open == 1 && pool.counts.idle == 0 }
            let waiter = Task { try await pool.withConnection { _ in 1 } }
            try await DataPoolTests.eventually { pool.waiting == 1 }
            try await Task.sleep(for: .milliseconds(50))
            release.signal()
            _ = try await (holder.value, waiter.value)
            let waits = try metrics.expectTimer(
                "trip_history_db_pool_wait_seconds", [("pool", "test"), ("queue", "connections")])
            #expect(waits.values.count == 1, "only the caller that waited is timed")
            #expect(waits.values.allSatisfy { $0 >= 50_000_000 }, "it waited at least as long as the holder held on")
            await pool.shutdown()
        }
    }
}
