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
            retryPolicy: RetryPolicy(maxAttempts: 2, baseDelay: .milliseconds(50), maxDelay: .seconds(1)),
            token: { token })
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
