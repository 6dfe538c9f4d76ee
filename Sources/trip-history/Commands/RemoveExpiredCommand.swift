import ArgumentParser
import Foundation
import Logging
import TripHistoryApp
import TripHistoryData
import TripHistoryDomain

/// `trip-history remove-expired`: removes the trips past the retention now, as every `serve` with a retention
/// does at start and every ten minutes; for a first run on a large table, or a scheduler of its own.
struct RemoveExpiredCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove-expired",
        abstract:
            "Remove the years of trips that ended before the retention's cutoff, as serve does in the background.",
        discussion: """
            Each year's partition is detached and dropped; each of its trips goes with its receipt, ledger and \
            idempotency keys, and is reported to its rider's changes feed as erased. Prints how many trips of \
            how many riders were removed, the years, and the cutoff.
            """
    )

    @OptionGroup var database: DatabaseFlags

    @Option(
        name: Setting.retentionMonths.names,
        help: Setting.retentionMonths.argumentHelp(
            "Months of trips kept before the current month (1-1200).", else: "required"))
    var retentionMonths: String?

    func run() async throws {
        var given = database.given
        given.add(.retentionMonths, retentionMonths)
        let settings = try given.settings(environment: ProcessInfo.processInfo.environment)
        let retention = try usageErrors {
            guard let retention = try LifecycleConfiguration.tripRetention(settings) else {
                throw ConfigurationError("Set \(Setting.retentionMonths) to remove trips past a retention.")
            }
            return retention
        }
        let removal = try await withDatabase(settings, label: "trip-history.retention") { pool, logger in
            try await ExpiredTripRemover(pool: pool, retention: retention, logger: logger).removeExpired()
        }
        let years = removal.years.isEmpty ? "none" : removal.years.map(String.init).joined(separator: ", ")
        print(
            "removed \(removal.trips) trips of \(removal.riders) riders, the years \(years), which ended before "
                + removal.cutoff.ISO8601Format(.iso8601))
    }
}
