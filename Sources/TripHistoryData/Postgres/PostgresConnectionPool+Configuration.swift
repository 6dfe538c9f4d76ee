extension PostgresConnectionPool {
    /// How the pool connects and how long it waits. Holds the connection string, which may contain a
    /// password, so it is never printed.
    public struct Configuration: Sendable {
        /// A `postgresql://` URI or a `key=value` conninfo string; its settings win over the timeouts here.
        public var connectionString: String
        /// Most connections open at once, and threads that run libpq calls.
        public var size: Int
        /// Longest wait for a free connection before `PostgresPoolError.acquireTimeout`.
        public var acquireTimeout: Duration
        /// Most callers waiting for a free connection at once; one more fails at once with
        /// `PostgresPoolError.overloaded`. Zero refuses every caller that finds all connections busy.
        public var maximumWaiters: Int
        /// The server cancels any statement running longer (`statement_timeout`, SQLSTATE 57014).
        public var statementTimeout: Duration
        /// Longest wait to open a connection to an unreachable host; a refused connection fails at once.
        public var connectTimeout: Duration
        /// Connections, each with a thread of its own, that carry single-statement reads in pipeline mode
        /// (`read(_:)`); they come on top of `size`. 0 for a pool whose callers never pipeline: it starts no
        /// pipeline thread, and `read(_:)` runs on a lent connection.
        public var pipelinedConnections: Int
        /// Most reads one pipelined connection sends at once.
        public var maximumPipelineBatch: Int
        /// Most reads waiting for a pipelined connection; further ones fail at once with
        /// `PostgresPoolError.readQueueFull`.
        public var maximumQueuedReads: Int
        /// How long past the statement timeout the client still waits for PostgreSQL's answer to a statement
        /// before it cancels it and drops the connection (`PostgresConnection.queryTimeout`), for a server
        /// that stopped answering without closing the socket.
        public var queryGrace: Duration
        /// How long a connection may stay idle (back in the pool and not lent again) before the pool's `run()`
        /// closes it; nil keeps idle connections open until shutdown.
        public var idleTimeout: Duration?
        /// For a database that can move to another server: new connections use its current connection string
        /// instead of `connectionString`.
        public var target: PostgresConnectionTarget?

        public init(
            connectionString: String, size: Int = 8, acquireTimeout: Duration = .seconds(2),
            statementTimeout: Duration = .seconds(5), connectTimeout: Duration = .seconds(3),
            pipelinedConnections: Int = 2, maximumPipelineBatch: Int = 16, maximumWaiters: Int = 64,
            maximumQueuedReads: Int = 1024, queryGrace: Duration = .seconds(1), idleTimeout: Duration? = nil,
            target: PostgresConnectionTarget? = nil
        ) {
            self.connectionString = connectionString
            self.target = target
            self.size = max(size, 1)
            self.acquireTimeout = acquireTimeout
            self.maximumWaiters = max(maximumWaiters, 0)
            self.statementTimeout = statementTimeout
            self.connectTimeout = connectTimeout
            self.pipelinedConnections = max(pipelinedConnections, 0)
            self.maximumPipelineBatch = max(maximumPipelineBatch, 1)
            self.maximumQueuedReads = max(maximumQueuedReads, 1)
            self.queryGrace = max(queryGrace, .zero)
            self.idleTimeout = idleTimeout.map { max($0, .zero) }
        }

        /// The client's query timeout for statements that run under `statementTimeout` rather than the
        /// pool's default: that timeout plus `queryGrace`.
        public func queryTimeout(statementTimeout: Duration) -> Duration {
            statementTimeout + queryGrace
        }

        /// `existing` while it is alive, else a new connection with these settings whose statements are timed
        /// into `timers`. Blocks on the network, so call it only where libpq may block (the pool's threads).
        func liveConnection(
            reusing existing: PostgresConnection?, timers: PostgresStatementTimers
        ) throws(PostgresError) -> PostgresConnection {
            if let existing, existing.isAlive { return existing }
            let connection = try PostgresConnection(
                connectionString: target?.connectionString ?? connectionString,
                connectTimeoutSeconds: connectTimeoutSeconds,
                statementTimeoutMilliseconds: statementTimeoutMilliseconds, queryGrace: queryGrace
            )
            connection.statementTimers = timers
            return connection
        }

        var statementTimeoutMilliseconds: Int { statementTimeout.wholeMilliseconds }
        // libpq takes whole seconds and treats values below 2 as 2.
        var connectTimeoutSeconds: Int { max(1, (connectTimeout.wholeMilliseconds + 999) / 1000) }
    }
}
