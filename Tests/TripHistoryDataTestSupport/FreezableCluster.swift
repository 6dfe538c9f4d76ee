import Foundation
import Synchronization
import TripHistoryData

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A PostgreSQL cluster of one test's own (started with `scripts/lib/postgres.sh`, as `scripts/test` starts
/// the shared one), which the test may freeze: every server process stopped with `SIGSTOP`, so its sockets
/// stay open but nothing answers, as when packets to the server are silently dropped. Other tests never
/// see it. A watchdog thaws and deletes it should the test process die first.
public final class FreezableCluster: Sendable {
    public struct StartFailed: Error, CustomStringConvertible {
        public let description: String
    }

    /// A `postgresql://` URI of the cluster's database.
    public let connectionString: String
    private let directory: String

    private static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    private static var library: String { repositoryRoot.appendingPathComponent("scripts/lib/postgres.sh").path }

    private init(connectionString: String, directory: String) {
        self.connectionString = connectionString
        self.directory = directory
    }

    /// Creates and starts a cluster on a free port, with this checkout's migrations applied.
    public static func start() async throws -> FreezableCluster {
        let cluster = try await create()
        do {
            _ = try await MigrationRunner(
                connectionString: cluster.connectionString, directory: DataTestDatabase.migrationsDirectory,
                logger: DataTestDatabase.logger
            ).migrate()
        } catch {
            cluster.remove()
            throw error
        }
        return cluster
    }

    /// Creates and starts an empty cluster, which takes the few seconds of `initdb` and the start.
    private static func create() async throws -> FreezableCluster {
        let output = FileManager.default.temporaryDirectory
            .appendingPathComponent("freezable-cluster-\(UInt32.random(in: 0...UInt32.max)).out").path
        defer { unlink(output) }
        // The postgres user must reach the directory, so it lives under /tmp whatever TMPDIR says.
        let script = """
            set -e
            source "$1"
            pg_ensure_packages server >&2
            dir=$(mktemp -d /tmp/trip-history-faults.XXXXXX)
            port=$(pg_pick_free_port 15000 17999)
            start_private_cluster "$dir" "$port" --ephemeral >&2
            printf '%s\\n%s\\n' "$dir" "$DATABASE_URL" >"$2"
            setsid bash -c "$4" freezable-cluster-watchdog "$1" "$3" "$dir" </dev/null >/dev/null 2>&1 &
            """
        let watchdog = #"while kill -0 "$2" 2>/dev/null; do sleep 2; done; "# + removal
        let status = try await ChildProcess.bash(script, Self.library, output, String(getpid()), watchdog)
        let lines = (try? String(contentsOfFile: output, encoding: .utf8))?.split(separator: "\n") ?? []
        guard status == 0, lines.count == 2 else {
            throw StartFailed(description: "could not start a private PostgreSQL cluster (exit status \(status))")
        }
        return FreezableCluster(connectionString: String(lines[1]), directory: String(lines[0]))
    }

    /// With `$1` the shell library and `$3` the cluster's directory: thaws the cluster, stops it and deletes it.
    private static let removal = #"""
        source "$1"
        if pid=$(head -n 1 "$3/data/postmaster.pid" 2>/dev/null); then pkill -CONT -P "$pid"; kill -CONT "$pid"; fi
        remove_cluster "$3"
        """#

    /// Stops (`SIGSTOP`) the postmaster, then every process it started: the postmaster first, so it starts no new
    /// process while its children are being stopped (and `thaw` continues it last).
    public func freeze() async throws {
        _ = try await ChildProcess.bash(
            #"pid=$(head -n 1 "$1/data/postmaster.pid") && kill -STOP "$pid" && pkill -STOP -P "$pid""#, directory)
    }

    /// Continues (`SIGCONT`) every server process.
    public func thaw() async throws {
        _ = try await ChildProcess.bash(
            #"pid=$(head -n 1 "$1/data/postmaster.pid") && pkill -CONT -P "$pid"; kill -CONT "$pid""#, directory)
    }

    /// Runs `body` with the cluster frozen, thawing it on every path.
    public func whileFrozen<T>(_ body: () async throws -> T) async throws -> T {
        try await freeze()
        do {
            let value = try await body()
            try await thaw()
            return value
        } catch {
            try await thaw()
            throw error
        }
    }

    /// Thaws, stops and deletes the cluster in the background: nothing waits for the stop, which takes a second
    /// or more, so a `defer` may call it.
    public func remove() {
        _ = try? ChildProcess("/bin/bash", ["-c", Self.removal, "freezable-cluster", Self.library, "", directory])
    }
}

/// Runs `body` in a task of its own and waits for it no longer than `limit`: its outcome, or nil when it did
/// not finish in time (the task is then canceled and left behind). A guard so a test that would hang fails.
public func outcome<T: Sendable>(
    within limit: Duration, _ body: @escaping @Sendable () async throws -> T
) async -> Result<T, any Error>? {
    let waiter = Mutex<CheckedContinuation<Result<T, any Error>?, Never>?>(nil)
    let finish: @Sendable (Result<T, any Error>?) -> Void = { outcome in
        waiter.withLock { continuation in
            continuation?.resume(returning: outcome)
            continuation = nil
        }
    }
    return await withCheckedContinuation { continuation in
        waiter.withLock { $0 = continuation }
        let work = Task {
            do {
                finish(.success(try await body()))
            } catch {
                finish(.failure(error))
            }
        }
        Task {
            try? await Task.sleep(for: limit)
            finish(nil)
            work.cancel()
        }
    }
}
