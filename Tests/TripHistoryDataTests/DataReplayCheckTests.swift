import Foundation
import Testing
import TripHistoryDataTestSupport
import TripHistoryDomain

@testable import TripHistoryData

/// Reads that must see a replay position check it on the connection that serves them, against the lagging
/// standby `scripts/test` starts (`TRIP_HISTORY_TEST_READ_URL`, 3 s apply delay) and its primary.
@Suite struct DataReplayCheckTests {
    private static func readURL() throws -> String {
        guard let url = ProcessInfo.processInfo.environment["TRIP_HISTORY_TEST_READ_URL"], !url.isEmpty else {
            Issue.record("TRIP_HISTORY_TEST_READ_URL is not set: these tests need the standby scripts/test starts")
            throw PostgresError(kind: .connectionFailed, message: "no standby")
        }
        return url
    }

    private static func firstPage(_ rider: RiderID) -> RiderTripsPage {
        RiderTripsPage(
            direction: .older, riderID: rider, from: .negativeInfinity, to: .infinity, keyRequestedAt: .infinity,
            keyID: Int64.max, statuses: TripStatements.statuses(nil), limit: 10)
    }

    /// With pipelined connections, and without (a lent connection checks the position the same way).
    @Test(arguments: [2, 0])
    func aStandbyBehindTheRequiredPositionRefusesTheReadAndOneThatReachedItServesIt(
        pipelinedConnections: Int
    ) async throws {
        let reader = PostgresConnectionPool(
            configuration: .init(
                connectionString: try Self.readURL(), size: 1, pipelinedConnections: pipelinedConnections),
            logger: DataTestDatabase.logger)
        do {
            try await Self.check(reader, pipelinedConnections: pipelinedConnections)
        } catch {
            await reader.shutdown()
            throw error
        }
        await reader.shutdown()
    }

    private static func check(_ reader: PostgresConnectionPool, pipelinedConnections: Int) async throws {
        try await DataTestDatabase.withPool(size: 2, pipelinedConnections: pipelinedConnections) { writer in
            let rider = DataTestDatabase.randomRiderID()
            _ = try await PostgresTripRepository(pool: writer).record(
                dataTestTrip(rider: rider, requestedAtMicros: 1_767_225_600_000_000), idempotency: nil)
            let written = try #require(
                try await writer.withConnection {
                    try $0.query("SELECT pg_current_wal_insert_lsn()::text").string(0, 0)
                }
                .flatMap(WALPosition.init))

            // A position far beyond anything written: the standby cannot have replayed it, and says so.
            await #expect(throws: ReplicaBehind.self) {
                try await reader.read(Self.firstPage(rider), requiredReplay: WALPosition(written.value + 1 << 40))
            }
            // A position it has replayed is served from it, in the same batch machinery.
            let quiet = DataTestDatabase.randomRiderID()
            #expect(try await reader.read(Self.firstPage(quiet), requiredReplay: .zero).isEmpty)
            // Once it has replayed the write, the same read is served and has the trip.
            let deadline = ContinuousClock.now + .seconds(60)
            var trips: [Trip]?
            while trips == nil, ContinuousClock.now < deadline {
                trips = try? await reader.read(Self.firstPage(rider), requiredReplay: written)
                if trips == nil { try await Task.sleep(for: .milliseconds(100)) }
            }
            #expect(trips?.count == 1)

            // A server that is not a standby is no replica to vouch for a position.
            await #expect(throws: ReplicaBehind.self) {
                try await writer.read(Self.firstPage(rider), requiredReplay: .zero)
            }
            // Without a requirement nothing is checked.
            #expect(try await writer.read(Self.firstPage(rider)).count == 1)
        }
    }
}
