import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Prometheus
import Testing
import TripHistoryAPI
import TripHistoryApp
import TripHistoryData
import TripHistoryDataTestSupport
import TripHistoryDomain
import TripHistoryFakes
import TripHistoryTestSupport

/// The service as `serve` builds it: `ServiceConfiguration` read from settings, then `buildApplication`, the one
/// composition root, against the test PostgreSQL, on a loopback socket with its background services running.
@Suite struct CompositionRootOnPostgresTests {
    static let secret = String(repeating: "c", count: 32)

    @Test func theServiceAsServeBuildsItRecordsATripAndServesItToItsRiderOnly() async throws {
        // The shared pool migrates the test database once and holds the gate that fault tests take alone.
        try await DataTestDatabase.withPool(size: 1) { _ in
            let configuration = try ServiceConfiguration(
                settings: SettingsReader(environment: [
                    "DATABASE_URL": try DataTestDatabase.connectionString(), "TRIP_HISTORY_SECRET": Self.secret,
                    "TRIP_HISTORY_PORT": "0", "TRIP_HISTORY_METRICS": "off",
                    "TRIP_HISTORY_MIGRATIONS": DataTestDatabase.migrationsDirectory.path,
                ]))
            let application = try await buildApplication(
                configuration: configuration, metrics: PrometheusCollectorRegistry(),
                logger: Logger(label: "trip-history.composition-test"))
            let tokens = await AccessTokens(secret: Array(Self.secret.utf8))
            let rider = DataTestDatabase.randomRiderID()
            let service = try await tokens.issue(role: .service, subject: "ingest", timeToLive: .seconds(600))
            let owner = try await tokens.issue(role: .rider, subject: "\(rider)", timeToLive: .seconds(600))
            let stranger = try await tokens.issue(
                role: .rider, subject: "\(DataTestDatabase.randomRiderID())", timeToLive: .seconds(600))
            try await application.test(.live) { client in
                let id = try await client.execute(
                    uri: "/v1/trips", method: .post,
                    headers: [.authorization: "Bearer \(service)", .contentType: "application/json"],
                    body: ByteBuffer(
                        string: TripFixtures.recordBody(rider: rider, requestedAt: "2026-03-01T10:00:00-05:00"))
                ) { response in
                    #expect(response.status == .created)
                    return try #require(response.json().string("id"))
                }
                try await client.execute(
                    uri: "/v1/riders/\(rider)/trips", method: .get, headers: [.authorization: "Bearer \(owner)"]
                ) { response in
                    #expect(response.status == .ok)
                    #expect(response.json().tripIDs == [id])
                }
                try await client.execute(
                    uri: "/v1/riders/\(rider)/trips/\(id)", method: .get,
                    headers: [.authorization: "Bearer \(stranger)"]
                ) { response in
                    // Another rider's trip does not exist for this rider: no oracle of what others have.
                    #expect(response.status == .notFound)
                }
                // Readiness is checked by the health monitor the composition root starts, in the background.
                var ready = false
                for _ in 0..<50 where !ready {
                    ready = try await client.execute(uri: "/readyz", method: .get) { $0.status == .ok }
                    if !ready { try await Task.sleep(for: .milliseconds(100)) }
                }
                #expect(ready, "the health monitor never found the database ready")
            }
        }
    }

    /// With a retention, the composition root refuses a trip older than it and removes the older trips the
    /// database holds at start. On a schema of its own: the removal reaches every row of the table.
    @Test func aRetentionRefusesOlderTripsAndRemovesThoseStoredAtStart() async throws {
        try await DataTestDatabase.withMigratedFreshSchema { (pool: PostgresConnectionPool) async throws in
            let url = pool.configuration.connectionString
            let rider = DataTestDatabase.randomRiderID()
            // In a year that ended before a month's cutoff, whatever the day of the run.
            let longAgo = Date().addingTimeInterval(-400 * 86_400)
            let stored = try await PostgresTripRepository(pool: pool).record(
                try dataTestTrip(rider: rider, requestedAtMicros: Timestamp.micros(longAgo)), idempotency: nil
            ).trip
            _ = try await TripTablePartitioner(pool: pool).partition()

            let configuration = try ServiceConfiguration(
                settings: SettingsReader(environment: [
                    "DATABASE_URL": url, "TRIP_HISTORY_SECRET": Self.secret, "TRIP_HISTORY_PORT": "0",
                    "TRIP_HISTORY_METRICS": "off", "TRIP_HISTORY_MIGRATIONS": DataTestDatabase.migrationsDirectory.path,
                    "TRIP_HISTORY_RETENTION_MONTHS": "1",
                ]))
            let application = try await buildApplication(
                configuration: configuration, metrics: PrometheusCollectorRegistry(),
                logger: Logger(label: "trip-history.composition-test"))
            let tokens = await AccessTokens(secret: Array(Self.secret.utf8))
            let service = try await tokens.issue(role: .service, subject: "ingest", timeToLive: .seconds(600))
            let owner = try await tokens.issue(role: .rider, subject: "\(rider)", timeToLive: .seconds(600))
            let headers: HTTPFields = [.authorization: "Bearer \(service)", .contentType: "application/json"]
            try await application.test(.live) { client in
                try await client.execute(
                    uri: "/v1/trips", method: .post, headers: headers,
                    body: ByteBuffer(
                        string: TripFixtures.recordBody(
                            rider: rider, requestedAt: ISO8601DateFormatter().string(from: longAgo)))
                ) { response in
                    #expect(response.status == .unprocessableContent)
                    #expect(try response.json().string("param") == "requested_at")
                }
                let recent = try await client.execute(
                    uri: "/v1/trips", method: .post, headers: headers,
                    body: ByteBuffer(
                        string: TripFixtures.recordBody(
                            rider: rider,
                            requestedAt: ISO8601DateFormatter().string(from: Date().addingTimeInterval(-3600))))
                ) { response in
                    #expect(response.status == .created)
                    return try #require(response.json().string("id"))
                }
                // The removal runs at start, in the background: the stored old trip leaves the rider's list.
                var ids: [String] = []
                for attempt in 0..<50 {
                    ids = try await client.execute(
                        uri: "/v1/riders/\(rider)/trips", method: .get, headers: [.authorization: "Bearer \(owner)"]
                    ) { try $0.json().tripIDs }
                    if ids == [recent] { break }
                    if attempt < 49 { try await Task.sleep(for: .milliseconds(100)) }
                }
                #expect(ids == [recent], "the trip of \(longAgo) (\(stored.id)) was not removed")
            }
        }
    }
}
