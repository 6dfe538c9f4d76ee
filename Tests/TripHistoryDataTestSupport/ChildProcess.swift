public import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A child process of a test, started with posix_spawn and waited for by its pid.
///
/// Not Foundation's `Process`: it learns of an exit from a socket whose other end the child holds, and a server
/// that another test starts at that moment by fork inherits that end too and keeps it open, so `Process` never
/// sees the exit and its waiter hangs. Not system(3) either, which blocks the thread it runs on, one of the few
/// that every test's tasks share. The child starts with no descriptor of the tests' but its standard ones.
public final class ChildProcess: Sendable {
    /// How a child ended.
    public enum Termination: Sendable, Equatable {
        case exit(Int32)
        case signal(Int32)

        /// The status a shell would report: the exit status, or 128 and the signal.
        public var status: Int32 {
            switch self {
            case .exit(let status): status
            case .signal(let signal): 128 + signal
            }
        }
    }

    public struct SpawnFailed: Error, CustomStringConvertible {
        public let description: String
    }

    public let pid: pid_t
    private let termination = Mutex<Termination?>(nil)

    /// Starts `executable` with `arguments`, with `environment` when given (else this process's), in `directory`
    /// when given, its standard input /dev/null and its output and errors appended to the file `output` (else
    /// discarded). A file rather than a pipe, so nothing waits on an end a grandchild inherited.
    public init(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        directory: String? = nil, output: String? = nil
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output ?? "/dev/null", O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        guard let closeFrom = Self.closeFrom, let changeDirectory = Self.changeDirectory,
            closeFrom(&actions, 3) == 0, directory.map({ changeDirectory(&actions, $0) }) ?? 0 == 0
        else {
            throw SpawnFailed(description: "this glibc cannot close descriptors or change directory in posix_spawn")
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0)=\($1)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid = pid_t()
        let status = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard status == 0 else {
            throw SpawnFailed(description: "could not start \(executable): \(String(cString: strerror(status)))")
        }
        self.pid = pid
    }

    /// How the child ended, or nil while it runs; reaps it once it has ended.
    public var ended: Termination? {
        termination.withLock { termination in
            if termination == nil {
                var status: Int32 = 0
                if waitpid(pid, &status, WNOHANG) == pid {
                    let signal = status & 0x7f
                    termination = signal == 0 ? .exit((status >> 8) & 0xff) : .signal(signal)
                }
            }
            return termination
        }
    }

    public var isRunning: Bool { ended == nil }

    /// Sends `SIGTERM`.
    public func terminate() {
        if isRunning { kill(pid, SIGTERM) }
    }

    /// Waits, a few milliseconds at a time, until the child has ended. Cancelled, it stops the child.
    @discardableResult
    public func exited() async -> Termination {
        while true {
            if let ended { return ended }
            do {
                try await Task.sleep(for: .milliseconds(20))
            } catch {
                kill(pid, SIGKILL)
            }
        }
    }

    /// Runs `bash -c script` with `arguments` as `$1`... until it ends, its output discarded; its status.
    public static func bash(_ script: String, _ arguments: String...) async throws -> Int32 {
        try await ChildProcess("/bin/bash", ["-c", script, "bash"] + arguments).exited().status
    }

    // glibc's spawn extensions are declared for _GNU_SOURCE only, which Swift's Glibc module does not define.
    private static let closeFrom = symbol(
        "posix_spawn_file_actions_addclosefrom_np",
        as: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    private static let changeDirectory = symbol(
        "posix_spawn_file_actions_addchdir_np",
        as: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32).self)

    private static func symbol<T>(_ name: String, as type: T.Type) -> T? {
        dlsym(dlopen(nil, RTLD_NOW), name).map { unsafeBitCast($0, to: T.self) }
    }
}

/// What a finished child process printed (standard output and error together) and its exit status.
public struct ProcessOutput: Sendable {
    public let status: Int32
    public let output: String

    /// Runs `executable` with `arguments`, and `environment` when given (else this process's), until it ends.
    public static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String]? = nil
    ) async throws -> ProcessOutput {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("process-output-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        let child = try ChildProcess(executable.path, arguments, environment: environment, output: file.path)
        let status = await child.exited().status
        let data = (try? Data(contentsOf: file)) ?? Data()
        return ProcessOutput(status: status, output: String(decoding: data, as: UTF8.self))
    }
}
