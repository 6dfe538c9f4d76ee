public import Foundation
public import Logging

/// Applies the `NNNN_name.sql` files of a source (built into the binary, or a folder) in version order, each in its own transaction together
/// with its row in `schema_migrations(version, name, checksum, applied_at)`.
///
/// Refuses to run when an applied file was edited or an applied version has no file. Safe to run from
/// several processes at once: migrating holds a PostgreSQL advisory lock, so a second runner waits and then
/// finds nothing to do.
public struct MigrationRunner: Sendable {
    private enum Target: Sendable {
        case pool(PostgresConnectionPool)
        case connectionString(String)
    }

    // Any fixed number works; it only has to be the same for every process migrating this database.
    private static let advisoryLockKey: Int64 = 0x7472_6970_6869_7374

    private let target: Target
    private let source: MigrationSource
    private let logger: Logger

    /// Runs the migrations of `source` over connections borrowed from `pool`.
    public init(pool: PostgresConnectionPool, source: MigrationSource, logger: Logger) {
        self.target = .pool(pool)
        self.source = source
        self.logger = logger
    }

    /// Runs the migrations of `source`, opening one connection per call and closing it afterwards (for CLI
    /// commands that need no pool).
    public init(connectionString: String, source: MigrationSource, logger: Logger) {
        self.target = .connectionString(connectionString)
        self.source = source
        self.logger = logger
    }

    /// Runs the migrations of the folder `directory` over connections borrowed from `pool`.
    public init(pool: PostgresConnectionPool, directory: URL, logger: Logger) {
        self.init(pool: pool, source: .directory(directory), logger: logger)
    }

    /// Runs the migrations of the folder `directory`, one connection per call.
    public init(connectionString: String, directory: URL, logger: Logger) {
        self.init(connectionString: connectionString, source: .directory(directory), logger: logger)
    }

    /// Applies the pending migrations and returns their names in the order applied (empty when current).
    /// Throws `MigrationError.edited` / `.unknownApplied` before applying anything when the history does not
    /// match the files, `.failed` when a migration's SQL fails (earlier ones stay applied).
    public func migrate() async throws -> [String] {
        let source = self.source
        let logger = self.logger
        return try await withConnection { connection in
            let files = try MigrationFile.load(from: source)
            // Migrations and waiting for another migrating process may take longer than a request may, on the
            // server and on the client.
            return try connection.withoutTimeouts { try Self.apply(files, on: connection, logger: logger) }
        }
    }

    /// Applies the files not yet applied, under the advisory lock; returns their names.
    private static func apply(
        _ files: [MigrationFile], on connection: PostgresConnection, logger: Logger
    ) throws -> [String] {
        try connection.query("SELECT pg_advisory_lock(\(Self.advisoryLockKey))")
        defer { _ = try? connection.query("SELECT pg_advisory_unlock(\(Self.advisoryLockKey))") }
        try connection.execute(
            unsafeSQL: """
                CREATE TABLE IF NOT EXISTS schema_migrations (
                    version integer PRIMARY KEY,
                    name text NOT NULL,
                    checksum text NOT NULL,
                    applied_at timestamptz NOT NULL DEFAULT now()
                )
                """
        )
        let applied = try Self.appliedRows(connection)
        let pending = try Self.compare(applied: applied, files: files).get()
        var names: [String] = []
        for file in pending {
            do {
                try connection.transaction { connection in
                    try connection.execute(unsafeSQL: file.sql)
                    try connection.query(
                        """
                        INSERT INTO schema_migrations (version, name, checksum, applied_at)
                        VALUES (\(file.version), \(file.name), \(file.checksum), now())
                        """
                    )
                }
            } catch let error as PostgresError where !error.isConnectionProblem {
                throw MigrationError.failed(name: file.name, message: error.message)
            }
            logger.info("applied migration", metadata: ["migration": "\(file.name)"])
            names.append(file.name)
        }
        return names
    }

    /// Compares the database with the files without changing anything.
    public func status() async throws -> MigrationStatus {
        let source = self.source
        return try await withConnection { connection in
            try Self.status(on: connection, files: try MigrationFile.load(from: source))
        }
    }

    /// The database on `connection` compared with `files`, which the caller loaded (and hashed) once.
    static func status(on connection: PostgresConnection, files: [MigrationFile]) throws -> MigrationStatus {
        let exists = try connection.query("SELECT to_regclass('schema_migrations') IS NOT NULL")
        let applied = try exists.bool(0, 0) == true ? try Self.appliedRows(connection) : [:]
        switch Self.compare(applied: applied, files: files) {
        case .success(let pending) where pending.isEmpty:
            let newer = applied.keys.filter { version in !files.contains { $0.version == version } }.sorted()
            return newer.isEmpty ? .current : .ahead(newer)
        case .success(let pending): return .pending(pending.map(\.name))
        case .failure(.edited(let name)): return .edited(name)
        case .failure(.unknownApplied(let version)): return .unknownApplied(version)
        case .failure(let error): throw error
        }
    }

    private static func appliedRows(_ connection: PostgresConnection) throws -> [Int: String] {
        let rows = try connection.query("SELECT version, checksum FROM schema_migrations ORDER BY version")
        var applied: [Int: String] = [:]
        for row in 0..<rows.count {
            guard let version = try rows.int64(row, 0), let checksum = try rows.string(row, 1) else { continue }
            applied[Int(version)] = checksum
        }
        return applied
    }

    /// The files still to apply, or why the recorded history does not match the files. Versions applied by a
    /// later build (newer than every file) are no mismatch while nothing is pending: the database is ahead.
    private static func compare(
        applied: [Int: String], files: [MigrationFile]
    ) -> Result<[MigrationFile], MigrationError> {
        let versions = Set(files.map(\.version))
        let newest = versions.max() ?? 0
        let unknown = applied.keys.sorted().filter { !versions.contains($0) }
        let pending = files.filter { applied[$0.version] == nil }
        if let foreign = unknown.first(where: { $0 < newest }) ?? (pending.isEmpty ? nil : unknown.first) {
            return .failure(.unknownApplied(foreign))
        }
        if let edited = files.first(where: { file in applied[file.version].map { $0 != file.checksum } ?? false }) {
            return .failure(.edited(edited.name))
        }
        return .success(pending)
    }

    private func withConnection<T: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) throws -> T
    ) async throws -> T {
        switch target {
        case .pool(let pool):
            return try await pool.withConnection(body)
        case .connectionString(let connectionString):
            return try await PostgresConnectionPool.withOneConnection(to: connectionString, logger: logger) { pool in
                try await pool.withConnection(body)
            }
        }
    }
}
