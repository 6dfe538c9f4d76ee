import NIOConcurrencyHelpers

/// The connection string of a database that can move to another server (a sharded topology's partition), shared
/// by the pools that reach it: every connection they open from now on reaches the current one, while the
/// connections open to the old server fail there and are dropped (a moved partition's old copy refuses them).
public final class PostgresConnectionTarget: Sendable {
    private let current: NIOLockedValueBox<String>

    public init(_ connectionString: String) {
        current = NIOLockedValueBox(connectionString)
    }

    /// The connection string new connections use.
    public var connectionString: String { current.withLockedValue { $0 } }

    /// Points new connections at `connectionString`; true when it differs from the one before.
    @discardableResult
    public func retarget(_ connectionString: String) -> Bool {
        current.withLockedValue { current in
            defer { current = connectionString }
            return current != connectionString
        }
    }
}
