public import Logging
import NIOConcurrencyHelpers
import TripHistoryDomain

/// Seeds riders on the sharded topology: each rider's trips go to the partition `RiderPlacement` names, the
/// partitions in parallel, with exactly the rows `TripSeeder` writes on one node (a rider's rows depend on the
/// seed and the rider alone), one transaction per rider.
public struct PartitionedSeeder: Sendable {
    private let partitions: [PartitionedSchema.Partition]
    private let logger: Logger

    /// Seeds into `partitions`, the cluster's partitions in number order (`PartitionedSchema.partitions()`).
    public init(partitions: [PartitionedSchema.Partition], logger: Logger) {
        self.partitions = partitions
        self.logger = logger
    }

    /// Replaces the trips of `riders` as `TripSeeder.seed` does, each rider on its partition; returns the rows
    /// written. `progress` receives the running row count after each rider.
    public func seed(
        riders: ClosedRange<Int>, distribution: SeedDistribution, seed: UInt64, progress: (@Sendable (Int) -> Void)?
    ) async throws -> Int {
        guard let placement = RiderPlacement(partitions: partitions.count) else {
            throw PartitionedSchemaError.notAPowerOfTwo(partitions.map(\.number))
        }
        var ridersByPartition = [[Int]](repeating: [], count: partitions.count)
        for rider in riders { ridersByPartition[placement.partition(of: Int64(rider))].append(rider) }
        // One line per partition, not per rider.
        let quiet = {
            var quiet = logger
            quiet.logLevel = max(logger.logLevel, .warning)
            return quiet
        }()
        let written = NIOLockedValueBox(0)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for partition in partitions where !ridersByPartition[partition.number].isEmpty {
                let riders = ridersByPartition[partition.number]
                group.addTask {
                    do {
                        try await PostgresConnectionPool.withOneConnection(
                            to: partition.connectionString, statementTimeout: .seconds(3600), logger: quiet
                        ) { pool in
                            let seeder = TripSeeder(pool: pool, logger: quiet)
                            for rider in riders {
                                let rows = try await seeder.seed(
                                    riders: rider...rider, distribution: distribution, seed: seed, progress: nil)
                                let total = written.withLockedValue { total in
                                    total += rows
                                    return total
                                }
                                progress?(total)
                            }
                        }
                    } catch {
                        throw PartitionedSchemaError.partitionFailed(partition.number, "\(error)")
                    }
                }
            }
            try await group.waitForAll()
        }
        let rows = written.withLockedValue { $0 }
        logger.info("seeded trips on partitions", metadata: ["rows": "\(rows)", "partitions": "\(partitions.count)"])
        return rows
    }
}
