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
        let cluster = try create()
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

    /// Creates and starts an empty cluster; blocks for the few seconds `initdb` and the start take.
    private static func create() throws -> FreezableCluster {
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
            setsid bash -c '
                source "$1"
                while kill -0 "$2" 2>/dev/null; do sleep 2; done
                pid=$(head -n 1 "$3/data/postmaster.pid" 2>/dev/null) || exit 0
                pkill -CONT -P "$pid"; kill -CONT "$pid"
                remove_cluster "$3"
            ' freezable-cluster-watchdog "$1" "$3" "$dir" </dev/null >/dev/null 2>&1 &
            """
        let status = run(script, Self.library, output, String(getpid()))
        let lines = (try? String(contentsOfFile: output, encoding: .utf8))?.split(separator: "\n") ?? []
        guard status == 0, lines.count == 2 else {
            throw StartFailed(description: "could not start a private PostgreSQL cluster (exit status \(status))")
        }
        return FreezableCluster(connectionString: String(lines[1]), directory: String(lines[0]))
    }

    /// Stops (`SIGSTOP`) the postmaster, then every process it started.
    public func freeze() {
        send(SIGSTOP)
    }

    /// Continues (`SIGCONT`) every server process.
    public func thaw() {
        send(SIGCONT)
    }

    /// Runs `body` with the cluster frozen, thawing it on every path.
    public func whileFrozen<T>(_ body: () async throws -> T) async throws -> T {
        freeze()
        do {
            let value = try await body()
            thaw()
            return value
        } catch {
            thaw()
            throw error
        }
    }

    /// Thaws, stops and deletes the cluster.
    public func remove() {
        thaw()
        _ = Self.run(#"source "$1"; remove_cluster "$2" >/dev/null 2>&1"#, Self.library, directory)
    }

    private func send(_ number: Int32) {
        guard let text = try? String(contentsOfFile: directory + "/data/postmaster.pid", encoding: .utf8),
            let line = text.split(separator: "\n").first, let pid = pid_t(line)
        else { return }
        // The postmaster first, so it starts no new process while its children are being stopped.
        if number == SIGSTOP { kill(pid, number) }
        _ = Self.run(#"pkill -"$1" -P "$2""#, number == SIGSTOP ? "STOP" : "CONT", String(pid))
        if number != SIGSTOP { kill(pid, number) }
    }

    /// Runs `script` with bash and `arguments` as `$1`...; system(3) rather than Process, which would wait for
    /// output pipes the server inherits.
    private static func run(_ script: String, _ arguments: String...) -> Int32 {
        let quoted = ([script, "freezable-cluster"] + arguments).map {
            "'" + $0.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
        }
        return system("bash -c " + quoted.joined(separator: " "))
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
