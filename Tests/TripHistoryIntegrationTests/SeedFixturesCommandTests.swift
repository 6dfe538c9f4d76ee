import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Prometheus
import Testing
import TripHistoryApp
import TripHistoryData
import TripHistoryDataTestSupport
import TripHistoryDomain
import TripHistoryTestSupport

/// `trip-history seed --write-fixtures`, run as a load tester runs it: the built binary against a schema of its
/// own (seeding replaces its riders' trips), then the service as `serve` builds it, with the same secret, taking
/// the fixtures' tokens and trip ids.
@Suite struct SeedFixturesCommandTests {
    static let secret = String(repeating: "f", count: 32)

    /// The file's shape, as a load-test script reads it.
    struct Fixtures: Decodable {
        struct Rider: Decodable {
            let riderID: String
            let token: String
            let tripIDs: [String]

            enum CodingKeys: String, CodingKey {
                case riderID = "rider_id"
                case token
                case tripIDs = "trip_ids"
            }
        }

        let expiresAt: String
        let serviceToken: String
        let riders: [Rider]

        enum CodingKeys: String, CodingKey {
            case expiresAt = "expires_at"
            case serviceToken = "service_token"
            case riders
        }
    }

    static func environment(_ url: String, secret: String? = Self.secret) -> [String: String] {
        var environment = ["DATABASE_URL": url, "PATH": "/usr/bin:/bin"]
        environment["TRIP_HISTORY_SECRET"] = secret
        return environment
    }

    static func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("fixtures-\(UUID().uuidString).json").path
    }

    @Test func theFixturesListEachSeededRiderWithTheirTokenAndCompletedTripsAndAServiceTokenThatTheServiceTakes()
        async throws
    {
        try await DataTestDatabase.withMigratedFreshSchema { (pool: PostgresConnectionPool) async throws in
            let url = pool.configuration.connectionString
            let path = Self.temporaryPath()
            defer { try? FileManager.default.removeItem(atPath: path) }
            let run = try await ProcessOutput.run(
                try ServeBinaryTests.binary(),
                [
                    "seed", "--riders", "3", "--first-rider", "7", "--trips-per-rider", "12", "--seed", "5",
                    "--write-fixtures", path, "--fixtures-ttl", "600",
                ],
                environment: Self.environment(url))
            #expect(run.status == 0, "\(run.output)")
            #expect(run.output.contains("Wrote fixtures for 3 riders"), "\(run.output)")

            let fixtures = try JSONDecoder().decode(Fixtures.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
            #expect(fixtures.riders.map(\.riderID) == ["7", "8", "9"])
            let expiresAt = try #require(try? Date(fixtures.expiresAt, strategy: .iso8601))
            #expect(abs(expiresAt.timeIntervalSinceNow - 600) < 120, "\(fixtures.expiresAt)")
            let repository = PostgresTripRepository(pool: pool)
            for rider in fixtures.riders {
                let riderID = try #require(RiderID(rider.riderID))
                #expect(!rider.tripIDs.isEmpty && rider.tripIDs.count <= 12)
                #expect(Set(rider.tripIDs).count == rider.tripIDs.count, "\(rider.tripIDs)")
                for id in rider.tripIDs {
                    let trip = try await repository.trip(id: try #require(TripID(id)), riderID: riderID)
                    #expect(trip?.status == .completed, "trip \(id) of rider \(rider.riderID)")
                }
                // The newest completed trip leads the list, as the first page shows it.
                let newest = try await repository.trips(
                    matching: TripPageQuery(
                        riderID: riderID, filter: TripFilter(range: .unbounded, status: .completed), position: nil,
                        fetchLimit: 1))
                #expect(rider.tripIDs.first == newest.first.map { "\($0.id)" })
            }

            // Seeded trips are older than the default tip window.
            let configuration = try ServiceConfiguration(
                settings: SettingsReader(
                    environment: Self.environment(url).merging([
                        "TRIP_HISTORY_PORT": "0", "TRIP_HISTORY_METRICS": "off",
                        "TRIP_HISTORY_MIGRATIONS": DataTestDatabase.migrationsDirectory.path,
                        "TRIP_HISTORY_TIP_WINDOW_DAYS": "3650",
                    ]) { $1 }))
            let application = try await buildApplication(
                configuration: configuration, metrics: PrometheusCollectorRegistry(),
                logger: Logger(label: "trip-history.seed-fixtures-test"))
            let (first, second) = (fixtures.riders[0], fixtures.riders[1])
            let trip = try #require(first.tripIDs.first)
            try await application.test(.live) { client in
                try await client.execute(
                    uri: "/v1/riders/\(first.riderID)/trips/\(trip)", method: .get,
                    headers: [.authorization: "Bearer \(first.token)"]
                ) { response in
                    #expect(response.status == .ok)
                }
                // Each token is its own rider's: another rider's trip does not exist for it.
                try await client.execute(
                    uri: "/v1/riders/\(first.riderID)/trips/\(trip)", method: .get,
                    headers: [.authorization: "Bearer \(second.token)"]
                ) { response in
                    #expect(response.status == .notFound)
                }
                try await client.execute(
                    uri: "/v1/riders/\(first.riderID)/trips/\(trip)/adjustments", method: .post,
                    headers: [
                        .authorization: "Bearer \(fixtures.serviceToken)", .contentType: "application/json",
                        HTTPField.Name("Idempotency-Key")!: "fixtures-test-tip",
                    ],
                    body: ByteBuffer(string: #"{"kind": "tip", "amount_minor": 1, "reason": "In-app tip"}"#)
                ) { response in
                    #expect(response.status == .created, "\(String(buffer: response.body))")
                }
            }
        }
    }

    /// A missing secret, or a COPY file asked for too, is refused before anything is seeded or written.
    @Test func withoutASecretNothingIsSeededNorWritten() async throws {
        try await DataTestDatabase.withMigratedFreshSchema { (pool: PostgresConnectionPool) async throws in
            let url = pool.configuration.connectionString
            let path = Self.temporaryPath()
            defer { try? FileManager.default.removeItem(atPath: path) }
            let seed = ["seed", "--riders", "2", "--trips-per-rider", "3", "--write-fixtures", path]

            let unsigned = try await ProcessOutput.run(
                try ServeBinaryTests.binary(), seed, environment: Self.environment(url, secret: nil))
            #expect(unsigned.status == 64, "\(unsigned.output)")
            #expect(unsigned.output.contains("TRIP_HISTORY_SECRET"), "\(unsigned.output)")
            let both = try await ProcessOutput.run(
                try ServeBinaryTests.binary(), seed + ["--dump-copy-file", path + ".copy"],
                environment: Self.environment(url))
            #expect(both.status == 64, "\(both.output)")

            #expect(!FileManager.default.fileExists(atPath: path))
            #expect(!FileManager.default.fileExists(atPath: path + ".copy"))
            let trips = try await PostgresTripRepository(pool: pool).trips(
                matching: TripPageQuery(riderID: RiderID(1)!, filter: .all, position: nil, fetchLimit: 1))
            #expect(trips.isEmpty)
        }
    }
}
