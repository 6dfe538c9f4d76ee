public import Foundation

/// What a finished child process printed (standard output and error together) and its exit status.
public struct ProcessOutput: Sendable {
    public let status: Int32
    public let output: String

    /// Runs `executable` with `arguments`, and `environment` when given (else this process's), until it
    /// exits.
    public static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String]? = nil
    ) throws -> ProcessOutput {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = environment }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return ProcessOutput(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
    }
}
