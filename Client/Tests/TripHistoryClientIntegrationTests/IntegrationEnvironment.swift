import Foundation
import Testing
import TripHistoryClient

/// The running server and database `scripts/test-client` provides, read from its environment variables.
///
/// Without them the integration tests are skipped on a developer's machine, and fail when `CI` is set, so a
/// misconfigured CI run cannot pass without having talked to a server.
struct IntegrationEnvironment {
    let baseURL: URL
    let rider: String
    let otherRider: String
    let riderToken: String
    let serviceToken: String
    let expiredToken: String
    let databaseURL: String

    /// Whether the integration tests run: the environment is there, or CI requires it.
    static var shouldRun: Bool {
        load() != nil || isCI
    }

    static var isCI: Bool {
        let value = ProcessInfo.processInfo.environment["CI"]?.lowercased() ?? ""
        return !value.isEmpty && value != "false" && value != "0"
    }

    /// The environment, or an error naming what is missing (the test then fails).
    static func required() throws -> IntegrationEnvironment {
        guard let environment = load() else {
            throw MissingEnvironment(
                description: "TRIP_HISTORY_CLIENT_* variables are missing: run the tests through scripts/test-client")
        }
        return environment
    }

    private static func load() -> IntegrationEnvironment? {
        let variables = ProcessInfo.processInfo.environment
        func value(_ name: String) -> String? {
            variables["TRIP_HISTORY_CLIENT_\(name)"].flatMap { $0.isEmpty ? nil : $0 }
        }
        guard let base = value("BASE_URL").flatMap(URL.init(string:)), let rider = value("RIDER"),
            let otherRider = value("OTHER_RIDER"), let riderToken = value("RIDER_TOKEN"),
            let serviceToken = value("SERVICE_TOKEN"), let expiredToken = value("EXPIRED_TOKEN"),
            let databaseURL = value("DATABASE_URL")
        else { return nil }
        return IntegrationEnvironment(
            baseURL: base, rider: rider, otherRider: otherRider, riderToken: riderToken, serviceToken: serviceToken,
            expiredToken: expiredToken, databaseURL: databaseURL)
    }

    /// A client of the test server sending `token`, with quick retries.
    func client(token: String) -> TripHistoryClient {
        TripHistoryClient(
            serverURL: baseURL,
            retryPolicy: RetryPolicy(maxAttempts: 2, baseDelay: 0.05, maxDelay: 1),
            token: { token })
    }

    /// When the rider's newest trip was requested, in seconds since 1970.
    func newestRequestTime() throws -> TimeInterval {
        let lines = try query(
            "SELECT extract(epoch FROM max(requested_at))::bigint FROM trips WHERE rider_id = \(rider)")
        guard let newest = lines.first.flatMap(TimeInterval.init) else {
            throw MissingEnvironment(description: "rider \(rider) has no trips")
        }
        return newest
    }

    /// Records a completed 1850-cent Paris trip of the rider, requested at `requested`, through the API with the
    /// service token, and returns it as the `201` answered it.
    func recordTrip(
        requestedAt requested: Date, breakdown: [Components.Schemas.NewFareLine]? = nil
    ) async throws
        -> Trip
    {
        let newTrip = Components.Schemas.NewTrip(
            riderId: .DecimalID(rider), status: .completed, product: "UberX", city: "Paris",
            timeZone: "Europe/Paris", requestedAt: requested, startedAt: requested.addingTimeInterval(120),
            completedAt: requested.addingTimeInterval(900),
            pickup: .init(lat: 48.8566, lon: 2.3522, address: "1 Rue de Rivoli, Paris"),
            dropoff: .init(lat: 48.8738, lon: 2.295, address: "Place Charles de Gaulle, Paris"),
            distanceM: 5200, durationS: 780, fare: .init(amountMinor: 1850, currency: "EUR", breakdown: breakdown))
        let created = try await client(token: serviceToken).api.recordTrip(
            headers: .init(idempotencyKey: "client-test-\(UUID().uuidString)"), body: .json(newTrip))
        return try created.created.body.json
    }

    /// The lines `psql` prints for `sql` (unaligned, tuples only) against the test database.
    func query(_ sql: String) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["psql", databaseURL, "-X", "-At", "-v", "ON_ERROR_STOP=1", "-c", sql]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw MissingEnvironment(description: "psql failed (status \(process.terminationStatus)) for: \(sql)")
        }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }
}

struct MissingEnvironment: Error, CustomStringConvertible {
    let description: String
}
