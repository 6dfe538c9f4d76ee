import ArgumentParser
import Foundation

/// The tuning flags of `serve`'s database that `migrate`, `seed` and `erasures` accepted without using them
/// when all four shared one option group. They are still accepted, hidden from the help, so scripts that pass
/// them keep working; each one given is named in a warning.
struct IgnoredDatabaseFlags: ParsableArguments {
    @Option(name: .customLong("database-read-url"), help: .hidden) var databaseReadURL: String?
    @Option(name: [.customLong("pool-size"), .customLong("db-pool-size")], help: .hidden) var poolSize: String?
    @Option(name: [.customLong("pool-max-waiters"), .customLong("db-pool-max-waiters")], help: .hidden)
    var poolMaxWaiters: String?
    @Option(name: [.customLong("analyst-pool-size"), .customLong("db-analyst-pool-size")], help: .hidden)
    var analystPoolSize: String?
    @Option(
        name: [.customLong("analyst-pool-max-waiters"), .customLong("db-analyst-pool-max-waiters")], help: .hidden)
    var analystPoolMaxWaiters: String?
    @Option(
        name: [.customLong("pipelined-connections"), .customLong("db-pipelined-connections")], help: .hidden)
    var pipelinedConnections: String?
    @Option(name: [.customLong("max-queued-reads"), .customLong("db-max-queued-reads")], help: .hidden)
    var maxQueuedReads: String?
    @Option(name: .customLong("statement-timeout-ms"), help: .hidden) var statementTimeout: String?
    @Option(name: .customLong("query-grace-ms"), help: .hidden) var queryGrace: String?
    @Flag(name: .customLong("require-standby-copy"), inversion: .prefixedNo, help: .hidden)
    var requireStandbyCopy: Bool?

    /// One line to standard error for each of these flags given, naming `command`.
    func warn(_ command: String) {
        let given: [(String, Bool)] = [
            ("--database-read-url", databaseReadURL != nil), ("--db-pool-size", poolSize != nil),
            ("--db-pool-max-waiters", poolMaxWaiters != nil), ("--db-analyst-pool-size", analystPoolSize != nil),
            ("--db-analyst-pool-max-waiters", analystPoolMaxWaiters != nil),
            ("--db-pipelined-connections", pipelinedConnections != nil),
            ("--db-max-queued-reads", maxQueuedReads != nil), ("--statement-timeout-ms", statementTimeout != nil),
            ("--query-grace-ms", queryGrace != nil), ("--require-standby-copy", requireStandbyCopy != nil),
        ]
        for (flag, isGiven) in given where isGiven {
            FileHandle.standardError.write(Data("warning: \(flag) has no effect on \(command).\n".utf8))
        }
    }
}
