import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing
import TripHistoryDataTestSupport
import TripHistoryTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The built `trip-history` binary, started as a deployment starts it: from an empty directory, with only a
/// database URL and a secret, no checkout around it (the migrations and the OpenAPI document are built in).
@Suite(.serialized) struct ServeBinaryTests {
    /// `trip-history` next to the test bundle (`.build/debug`), or `TRIP_HISTORY_BIN`.
    static func binary() throws -> URL {
        let environment = ProcessInfo.processInfo.environment
        let url =
            environment["TRIP_HISTORY_BIN"].map { URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("trip-history")
        try #require(
            FileManager.default.isExecutableFile(atPath: url.path),
            "no trip-history binary at \(url.path): build it with `swift build --build-tests`")
        return url
    }

    /// A loopback port nothing listens on now: bound, read back and released.
    static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(descriptor, generic, length) == 0 && getsockname(descriptor, generic, &length) == 0
            }
        }
        try #require(bound)
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Runs `trip-history ARGUMENTS` in `directory` with only the variables a deployment sets (nothing that
    /// points into the checkout), its output going to `log`.
    static func start(
        _ arguments: [String], in directory: URL, log: URL, extra: [String: String] = [:]
    ) throws -> ChildProcess {
        var environment = ["PATH": "/usr/bin:/bin", "DATABASE_URL": try DataTestDatabase.connectionString()]
        environment["TRIP_HISTORY_SECRET"] =
            ProcessInfo.processInfo.environment["TRIP_HISTORY_SECRET"] ?? String(repeating: "7f", count: 32)
        return try ChildProcess(
            try binary().path, arguments, environment: environment.merging(extra) { $1 }, directory: directory.path,
            output: log.path)
    }

    /// GET `path` on the server, retried while the server is still starting (connection refused) and alive.
    static func get(_ path: String, port: Int, server: ChildProcess) async throws -> TestClient.Response {
        var lastError: (any Error)?
        for _ in 0..<600 where server.isRunning {
            do {
                return try await TestClient.withClient(host: "127.0.0.1", port: port) { client in
                    try await client.execute(.init(path, method: .get))
                }
            } catch {
                lastError = error
                try await Task.sleep(for: .milliseconds(100))
            }
        }
        throw lastError ?? CancellationError()
    }

    static let customDocument = "openapi: 3.1.0\ninfo: {title: replaced, version: '1'}\npaths: {}\n"

    /// `migrate`, then `serve`, from an empty directory: the document served is the built-in copy of the
    /// repository's `openapi.yaml`, or the file `TRIP_HISTORY_OPENAPI` names, and the probes answer.
    @Test(arguments: [false, true])
    func serveStartsFromAnEmptyDirectory(replacingTheDocument: Bool) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("trip-history-serve-\(UUID())")
        let empty = directory.appendingPathComponent("cwd")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: empty.path).isEmpty)

        let migrate = try Self.start(["migrate"], in: empty, log: directory.appendingPathComponent("migrate.log"))
        let migrated = await migrate.exited()
        let migrateLog = (try? String(contentsOf: directory.appendingPathComponent("migrate.log"), encoding: .utf8))
        try #require(migrated == .exit(0), "migrate failed: \(migrateLog ?? "")")

        var extra: [String: String] = [:]
        if replacingTheDocument {
            let custom = directory.appendingPathComponent("custom-openapi.yaml")
            try Data(Self.customDocument.utf8).write(to: custom)
            extra["TRIP_HISTORY_OPENAPI"] = custom.path
        }
        let port = try Self.freePort()
        let log = directory.appendingPathComponent("serve.log")
        let server = try Self.start(
            ["serve", "--host", "127.0.0.1", "--port", String(port), "--no-metrics"], in: empty, log: log,
            extra: extra)
        defer { server.terminate() }
        let health: TestClient.Response
        do {
            health = try await Self.get("/healthz", port: port, server: server)
        } catch {
            let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            Issue.record("serve did not answer (\(error)); its output:\n\(output)")
            throw error
        }
        #expect(health.status == .ok)

        let document = try await Self.get("/openapi.yaml", port: port, server: server)
        #expect(document.status == .ok)
        let served = document.body.map { Array($0.readableBytesView) } ?? []
        let expected =
            replacingTheDocument
            ? Array(Self.customDocument.utf8) : Array(try Data(contentsOf: OpenAPIDocument.defaultURL))
        #expect(served == expected)
        #expect(try FileManager.default.contentsOfDirectory(atPath: empty.path).isEmpty, "serve wrote into its cwd")

        server.terminate()
        #expect(await server.exited() == .exit(0), "serve stops on SIGTERM by itself")
    }

    /// With JSON logs, every line the process writes is a JSON object, swift-otel's own start-up diagnostics
    /// included when traces are on (they go to an OTLP endpoint that nothing listens on, which is no failure).
    @Test func withJSONLogsAndTracesOnEveryLineIsJSON() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("trip-history-json-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let port = try Self.freePort()
        let log = directory.appendingPathComponent("serve.log")
        let server = try Self.start(
            ["serve", "--host", "127.0.0.1", "--port", String(port), "--no-metrics"], in: directory, log: log,
            extra: [
                "TRIP_HISTORY_LOG_FORMAT": "json", "OTEL_TRACES_EXPORTER": "otlp",
                "OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:\(try Self.freePort())",
                "OTEL_EXPORTER_OTLP_PROTOCOL": "http/protobuf",
            ])
        defer { server.terminate() }
        #expect(try await Self.get("/healthz", port: port, server: server).status == .ok)
        server.terminate()
        await server.exited()
        let lines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n")
        #expect(lines.count >= 3, "serve logged its start")
        let notJSON = lines.filter { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] == nil
        }
        #expect(notJSON.isEmpty, "lines that are not JSON objects: \(notJSON)")
        #expect(lines.contains { $0.contains("trip-history.otel") }, "swift-otel's diagnostics are among them")
    }
}
