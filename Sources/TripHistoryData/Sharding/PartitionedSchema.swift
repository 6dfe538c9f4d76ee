import Foundation
public import Logging

/// The sharded topology's databases brought up to date from its proxy: the PL/Proxy cluster `trips` of the proxy
/// database names each logical partition's database by a connection string (its options `p0` ... `pL-1`), so
/// the proxy is the one place that knows them all. Migrating applies the service's migrations and the partition
/// functions to every partition, places each (`trip_history_become_partition(p, L)`, which numbers its ids), and
/// installs the proxy's functions; every step can run again. The SQL is `scripts/shards/`, built into the binary.
public struct PartitionedSchema: Sendable {
    /// One logical partition: its number and its database's connection string, the user mapping's options added.
    public struct Partition: Sendable, Hashable {
        public let number: Int
        public let connectionString: String
    }

    /// The migrations applied to one partition, by name (empty when it was current).
    public struct Migrated: Sendable, Hashable {
        public let partition: Int
        public let applied: [String]
    }

    private let proxy: PostgresConnectionPool
    private let source: MigrationSource
    private let logger: Logger

    /// The topology whose proxy database `proxy` reaches; each partition is migrated from `source`.
    public init(proxy: PostgresConnectionPool, source: MigrationSource, logger: Logger) {
        self.proxy = proxy
        self.source = source
        self.logger = logger
    }

    /// The partitions of the cluster `trips` (or of `cluster`, such as its standby twin `trips_standby`) when the
    /// database is a PL/Proxy proxy that defines it; nil for any other database.
    public func partitions(of cluster: String = Self.cluster) async throws -> [Partition]? {
        try await proxy.withConnection { connection in
            let options = try connection.query(
                """
                SELECT o.option
                FROM pg_foreign_server AS s
                JOIN pg_foreign_data_wrapper AS w ON w.oid = s.srvfdw
                CROSS JOIN LATERAL unnest(s.srvoptions) AS o(option)
                WHERE s.srvname = \(cluster) AND w.fdwname = 'plproxy'
                """)
            guard options.count > 0 else { return nil }
            let mapping = try connection.query(
                """
                SELECT o.option
                FROM pg_user_mappings AS m CROSS JOIN LATERAL unnest(m.umoptions) AS o(option)
                WHERE m.srvname = \(cluster) AND m.usename IN (current_user, 'public')
                ORDER BY m.usename = 'public' DESC
                """)
            return try Self.partitions(
                clusterOptions: (0..<options.count).compactMap { try options.string($0, 0) },
                userMappingOptions: (0..<mapping.count).compactMap { try mapping.string($0, 0) })
        }
    }

    /// Migrates every partition of `partitions` (the migrations, the partition functions, its place), then
    /// installs the proxy's functions; returns what each partition applied. A partition that fails stops the run
    /// with its number in the error; the ones before it stay migrated, and running again carries on.
    public func migrate(_ partitions: [Partition]) async throws -> [Migrated] {
        let count = partitions.count
        var migrated: [Migrated] = []
        for partition in partitions {
            do {
                let applied = try await MigrationRunner(
                    connectionString: partition.connectionString, source: source, logger: logger
                ).migrate()
                try await PostgresConnectionPool.withOneConnection(to: partition.connectionString, logger: logger) {
                    try await $0.withConnection { connection in
                        try connection.withoutTimeouts {
                            try connection.execute(unsafeSQL: ShardSQL.types + "\n" + ShardSQL.partition)
                            try connection.execute(
                                unsafeSQL: "SELECT trip_history_become_partition(\(partition.number), \(count))")
                        }
                    }
                }
                logger.info(
                    "migrated partition",
                    metadata: ["partition": "\(partition.number)", "applied": "\(applied.count)"])
                migrated.append(Migrated(partition: partition.number, applied: applied))
            } catch {
                throw PartitionedSchemaError.partitionFailed(partition.number, "\(error)")
            }
        }
        try await proxy.withConnection { connection in
            try connection.withoutTimeouts {
                try connection.execute(unsafeSQL: ShardSQL.types + "\n" + ShardSQL.proxy)
            }
        }
        return migrated
    }

    public static let cluster = "trips"
    /// The cluster whose connection strings prefer each partition's standby (scripts/lib/shards.sh).
    public static let standbyCluster = "trips_standby"

    /// The partitions an option list of the cluster names (`p0=host=... dbname=...`; other options such as
    /// `connection_lifetime` are PL/Proxy's own), each connection string followed by the user mapping's options,
    /// as PL/Proxy itself connects. Refuses numbers that are not 0 ... L-1 with L a power of two, as PL/Proxy does.
    static func partitions(clusterOptions: [String], userMappingOptions: [String]) throws -> [Partition] {
        var byNumber: [Int: String] = [:]
        for option in clusterOptions {
            guard let equals = option.firstIndex(of: "="), option.first == "p",
                let number = Int(option[option.index(after: option.startIndex)..<equals]), number >= 0
            else { continue }
            byNumber[number] = String(option[option.index(after: equals)...])
        }
        let count = byNumber.count
        guard count > 0, count & (count - 1) == 0, byNumber.keys.allSatisfy({ $0 < count }) else {
            throw PartitionedSchemaError.notAPowerOfTwo(byNumber.keys.sorted())
        }
        let credentials = userMappingOptions.compactMap { option -> String? in
            guard let equals = option.firstIndex(of: "=") else { return nil }
            return "\(option[..<equals])=\(Self.quoted(String(option[option.index(after: equals)...])))"
        }
        return (0..<count).map { number in
            let connectionString = byNumber[number]!
            return Partition(
                number: number,
                connectionString: ([connectionString] + credentials).joined(separator: " "))
        }
    }

    /// A value in libpq's key/value syntax: single-quoted, its quotes and backslashes escaped.
    static func quoted(_ value: String) -> String {
        "'" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }
}

/// Why the sharded topology could not be migrated.
public enum PartitionedSchemaError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The cluster's partitions are not numbered 0 ... L-1 with L a power of two.
    case notAPowerOfTwo([Int])
    /// A partition's migration or functions failed; the partitions before it are migrated.
    case partitionFailed(Int, String)

    public var description: String {
        switch self {
        case .notAPowerOfTwo(let numbers):
            "The cluster 'trips' names partitions \(numbers); PL/Proxy needs p0 ... pL-1 with L a power of two."
        case .partitionFailed(let number, let message):
            "Partition p\(number) could not be migrated: \(message)"
        }
    }
}

/// `scripts/shards/`, built into the binary: the row types both sides declare, the partition functions and the
/// proxy functions.
enum ShardSQL {
    static let types = String(decoding: PackageResources.types_sql, as: UTF8.self)
    static let partition = String(decoding: PackageResources.partition_sql, as: UTF8.self)
    static let proxy = String(decoding: PackageResources.proxy_sql, as: UTF8.self)
}
