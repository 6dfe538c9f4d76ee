public import Foundation

/// What a finished child process printed (standard output and error together) and its exit status.
public struct ProcessOutput: Sendable {
    public let status: Int32
    public let output: String

    /// Runs `executable` with `arguments`, and `environment` when given (else this process's), until it
    /// exits.
    ///
    /// The output goes to a file read after the exit, not to a pipe read until its end: a child that another
    /// test spawns at the same moment can inherit the pipe's write end and keep it open for as long as it runs
    /// (a server), so the end would not come, and the blocked read would hold one of the few threads every
    /// test's tasks run on.
    public static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String]? = nil
    ) throws -> ProcessOutput {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("process-output-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: file.path])
        }
        defer { try? FileManager.default.removeItem(at: file) }
        let handle = try FileHandle(forWritingTo: file)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = environment }
        process.standardOutput = handle
        process.standardError = handle
        do {
            try process.run()
        } catch {
            try? handle.close()
            throw error
        }
        process.waitUntilExit()
        try handle.close()
        let data = try Data(contentsOf: file)
        return ProcessOutput(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
    }
}
