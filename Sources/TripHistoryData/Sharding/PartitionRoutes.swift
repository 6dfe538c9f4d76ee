public import Logging
import NIOConcurrencyHelpers
import TripHistoryDomain

/// The service's own path to the partitions on the sharded topology: each logical partition's pools, reached
/// at the connection strings the proxy's clusters name (`trips`, and `trips_standby` for its standbys), so that
/// a rider's call runs as on one node, prepared and pipelined, on the one database the placement names, and an
/// analyst's page asks every partition at once, instead of unprepared calls through PL/Proxy
/// (docs/scaling.md). The proxy stays the one map: after a call fails
/// in a way a moved partition fails (its old copy refuses connections and writes), the map is read again and
/// a changed connection string retargets that partition's pools.
public final class PartitionRoutes: Sendable {
    /// One logical partition's pools: the riders' and the analysts' on its primary, and on its standby when
    /// standby reads are on. The pools on one server share that server's target (their configuration's
    /// `target`), which a move retargets.
    public struct Partition: Sendable {
        public let primary: PostgresConnectionTarget
        public let standby: PostgresConnectionTarget?
        public let writer: PostgresConnectionPool
        public let reader: PostgresConnectionPool?
        public let analyst: PostgresConnectionPool
        public let analystReader: PostgresConnectionPool?

        /// `writer` and `analyst` reach `primary`; `reader` and `analystReader`, `standby`.
        public init(
            primary: PostgresConnectionTarget, standby: PostgresConnectionTarget?, writer: PostgresConnectionPool,
            reader: PostgresConnectionPool?, analyst: PostgresConnectionPool, analystReader: PostgresConnectionPool?
        ) {
            self.primary = primary
            self.standby = standby
            self.writer = writer
            self.reader = reader
            self.analyst = analyst
            self.analystReader = analystReader
        }

        /// The pools a service runs.
        public var pools: [PostgresConnectionPool] { [writer, analyst] + [reader, analystReader].compactMap { $0 } }
    }

    public let partitions: [Partition]
    private let placement: RiderPlacement
    private let schema: PartitionedSchema
    private let state = NIOLockedValueBox(State())
    private let logger: Logger

    private struct State {
        /// Counts the reloads of the map that changed a connection string.
        var generation = 0
        /// The reload under way, which concurrent callers share.
        var reload: Task<Void, Never>?
        /// When the last reload ended.
        var reloaded: ContinuousClock.Instant?
    }

    /// How long after a reload the map is not read again for callers that failed meanwhile: under a shard's
    /// failover or an overload every call may fail, and the proxy need not answer each.
    static let reloadInterval = Duration.milliseconds(100)

    /// `partitions` in number order, a power of two of them; `schema` reads the map from the proxy. Nil for a
    /// number of partitions that is no power of two.
    public init?(partitions: [Partition], schema: PartitionedSchema, logger: Logger) {
        guard let placement = RiderPlacement(partitions: partitions.count) else { return nil }
        self.partitions = partitions
        self.placement = placement
        self.schema = schema
        self.logger = logger
    }

    /// Runs the read `body` with the pool of `riderID`'s partition's primary, and once more when it failed as a
    /// call on a moved partition's old copy fails: its failed connection is gone, and the next one reaches the
    /// server the proxy's map, read again, names.
    func readOnPrimary<T>(_ riderID: RiderID, _ body: (PostgresConnectionPool) async throws -> T) async throws -> T {
        try await read(partitions[placement.partition(of: riderID)].writer, body)
    }

    /// Runs the read `body` with `pool`, a partition's, and once more when it failed as a call on a moved
    /// partition's old copy fails.
    func read<T>(
        _ pool: PostgresConnectionPool, _ body: (PostgresConnectionPool) async throws -> T
    ) async throws -> T {
        let generation = self.generation
        do {
            return try await body(pool)
        } catch let error as PostgresError where Self.mayHaveMoved(error) {
            _ = await mapChanged(since: generation)
            return try await body(pool)
        }
    }

    /// The number of `riderID`'s partition.
    func number(of riderID: RiderID) -> Int {
        placement.partition(of: riderID)
    }

    /// Counts the reloads of the map that changed a connection string: a caller notes it before a call, and
    /// `mapChanged(since:)` after the call failed.
    var generation: Int { state.withLockedValue(\.generation) }

    /// The pool of `riderID`'s partition's standby; nil without standby reads.
    func reader(of riderID: RiderID) -> PostgresConnectionPool? {
        partitions[placement.partition(of: riderID)].reader
    }

    /// How a call fails on a moved partition's old copy: the connection is refused or ends (its sessions are
    /// terminated, 57P01), or the frozen copy refuses a write.
    static func mayHaveMoved(_ error: PostgresError) -> Bool {
        error.isConnectionProblem || error.sqlState == "25006" || error.sqlState?.hasPrefix("57P") == true
    }

    /// Whether the map changed since `generation`: at once when another caller's reload changed it, else after
    /// a reload of the map, shared with the callers that ask meanwhile (none within `reloadInterval` of the
    /// last one).
    func mapChanged(since generation: Int) async -> Bool {
        let reload = state.withLockedValue { state -> Task<Void, Never>? in
            guard state.generation == generation else { return nil }
            if let reload = state.reload { return reload }
            if let reloaded = state.reloaded, ContinuousClock.now - reloaded < Self.reloadInterval { return nil }
            let reload = Task { await self.reloadMap() }
            state.reload = reload
            return reload
        }
        if let reload { await reload.value }
        return state.withLockedValue(\.generation) != generation
    }

    /// Reads both clusters' connection strings from the proxy and retargets the pools whose partition moved.
    private func reloadMap() async {
        defer {
            state.withLockedValue { state in
                state.reload = nil
                state.reloaded = .now
            }
        }
        do {
            let writers = try await schema.partitions() ?? []
            let readers =
                partitions.contains { $0.standby != nil }
                ? try await schema.partitions(of: PartitionedSchema.standbyCluster) ?? [] : []
            var moved: [Int] = []
            for (number, partition) in partitions.enumerated() {
                func retarget(_ target: PostgresConnectionTarget?, in map: [PartitionedSchema.Partition]) -> Bool {
                    guard let target, let named = map.first(where: { $0.number == number }) else { return false }
                    return target.retarget(named.connectionString)
                }
                let primaryMoved = retarget(partition.primary, in: writers)
                let standbyMoved = retarget(partition.standby, in: readers)
                if primaryMoved || standbyMoved { moved.append(number) }
            }
            guard !moved.isEmpty else { return }
            state.withLockedValue { $0.generation += 1 }
            logger.notice(
                "partitions moved; their pools now reach the new servers", metadata: ["partitions": "\(moved)"])
        } catch {
            logger.warning("the proxy's map of the partitions could not be read", metadata: ["error": "\(error)"])
        }
    }
}
