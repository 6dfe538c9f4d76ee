import ArgumentParser
import Foundation
import Logging
import TripHistoryApp
import TripHistoryData

/// `trip-history partition-trips`: partitions the trips table by year, online; what a retention needs.
struct PartitionTripsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "partition-trips",
        abstract: "Partition the trips table by year while the service keeps serving it (a retention needs it).",
        discussion: """
            Migrate first. Instant on an empty table. Mirrors every write into a partitioned twin, copies the \
            trips in short batches, then \
            swaps the twin in under the old name; no step blocks reads or writes for more than a second (a step \
            that cannot get its lock in that time gives up and tries again). Run it again after an interruption: \
            it goes on where it stopped. Does nothing on a table that is partitioned already.
            """
    )

    @OptionGroup var database: DatabaseFlags

    @Option(help: "Trips copied per transaction.")
    var batchSize = 10_000

    func validate() throws {
        guard (1...1_000_000).contains(batchSize) else {
            throw ValidationError("--batch-size must be between 1 and 1000000.")
        }
    }

    func run() async throws {
        let settings = try database.given.settings(environment: ProcessInfo.processInfo.environment)
        let outcome = try await withDatabase(settings, label: "trip-history.partitioning") { pool, logger in
            try await TripTablePartitioner(pool: pool, batchSize: batchSize, logger: logger).partition { copied in
                FileHandle.standardError.write(Data("copied \(copied) trips\n".utf8))
            }
        }
        print(
            outcome.partitioned
                ? "Partitioned trips by year: \(outcome.copied) trips copied, \(outcome.lockRetries) lock retries."
                : "trips is partitioned already.")
    }
}
