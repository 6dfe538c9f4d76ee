import ArgumentParser
import Foundation
import TripHistoryApp

/// The tuning flags of `serve`'s database that `migrate`, `seed` and `erasures` accepted without using them
/// when all four shared one option group. They are still accepted, hidden from the help, so scripts that pass
/// them keep working; each one given is named in a warning.
struct IgnoredDatabaseFlags: ParsableArguments {
    @Option(name: Setting.databaseReadURL.names, help: .hidden) var databaseReadURL: String?
    @Option(name: Setting.poolSize.names, help: .hidden) var poolSize: String?
    @Option(name: Setting.poolMaxWaiters.names, help: .hidden) var poolMaxWaiters: String?
    @Option(name: Setting.analystPoolSize.names, help: .hidden) var analystPoolSize: String?
    @Option(name: Setting.analystPoolMaxWaiters.names, help: .hidden) var analystPoolMaxWaiters: String?
    @Option(name: Setting.pipelinedConnections.names, help: .hidden) var pipelinedConnections: String?
    @Option(name: Setting.maxQueuedReads.names, help: .hidden) var maxQueuedReads: String?
    @Option(name: Setting.statementTimeout.names, help: .hidden) var statementTimeout: String?
    @Option(name: Setting.queryGrace.names, help: .hidden) var queryGrace: String?
    @Flag(name: Setting.requireStandbyCopy.names, inversion: .prefixedNo, help: .hidden) var requireStandbyCopy: Bool?

    /// One line to standard error for each of these flags given, naming `command`.
    func warn(_ command: String) {
        let given: [(Setting, Bool)] = [
            (.databaseReadURL, databaseReadURL != nil), (.poolSize, poolSize != nil),
            (.poolMaxWaiters, poolMaxWaiters != nil), (.analystPoolSize, analystPoolSize != nil),
            (.analystPoolMaxWaiters, analystPoolMaxWaiters != nil),
            (.pipelinedConnections, pipelinedConnections != nil),
            (.maxQueuedReads, maxQueuedReads != nil), (.statementTimeout, statementTimeout != nil),
            (.queryGrace, queryGrace != nil), (.requireStandbyCopy, requireStandbyCopy != nil),
        ]
        for (setting, isGiven) in given where isGiven {
            FileHandle.standardError.write(Data("warning: \(setting.flag) has no effect on \(command).\n".utf8))
        }
    }
}
