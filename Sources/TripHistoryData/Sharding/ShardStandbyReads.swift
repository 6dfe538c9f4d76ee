import Synchronization
public import TripHistoryDomain

/// Where a partition's writes stand: a WAL position of the server the partition is on
/// (`trip_history_write_position`, scripts/shards/partition.sql).
struct PartitionPosition: Sendable, Equatable {
    let lsn: WALPosition
    let server: PartitionServer

    /// The later of two positions of one partition: the one taken after more moves (a move copies everything
    /// written before it, and a position on the new server is taken after the copy), else the further one.
    func covering(_ other: PartitionPosition?) -> PartitionPosition {
        guard let other else { return self }
        if server.moves != other.server.moves { return server.moves > other.server.moves ? self : other }
        return lsn >= other.lsn ? self : other
    }

    /// `LSN SYSTEM_IDENTIFIER MOVES`, as a change notification carries it after the rider id.
    var text: String { "\(lsn) \(server.systemIdentifier) \(server.moves)" }

    init(lsn: WALPosition, server: PartitionServer) {
        self.lsn = lsn
        self.server = server
    }

    /// Parses `text`; nil for anything else.
    init?(text: some StringProtocol) {
        let fields = text.split(separator: " ")
        guard fields.count == 3, let lsn = WALPosition(String(fields[0])), let system = Int64(fields[1]),
            let moves = Int64(fields[2])
        else { return nil }
        self.init(lsn: lsn, server: PartitionServer(systemIdentifier: system, moves: moves))
    }

    /// The position in columns `column` (the lsn as text) and the two after it (its server).
    static func decode(_ rows: PostgresRows, row: Int, column: Int) throws(PostgresError) -> PartitionPosition {
        guard let lsn = try rows.string(row, column).flatMap(WALPosition.init) else {
            throw PostgresError(kind: .decoding, message: "a partition's position without its lsn")
        }
        return PartitionPosition(lsn: lsn, server: try PartitionServer.decode(rows, row: row, column: column + 1))
    }
}

/// The rider's partition's position after a write (`trip_history_write_position`).
struct PartitionWritePosition: PostgresPreparedStatement {
    static let name = "proxy_trip_history_write_position"
    static let sql = "SELECT lsn::text, system_identifier, moves FROM trip_history_write_position($1)"

    let riderID: RiderID

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 1)
        bindings.append(riderID)
        return bindings
    }

    func decodeRow(_ rows: PostgresRows, row: Int) throws(PostgresError) -> PartitionPosition {
        try PartitionPosition.decode(rows, row: row, column: 0)
    }
}

/// Every partition's position with its number (`trip_history_write_positions`).
struct PartitionWritePositions: PostgresPreparedStatement {
    static let name = "proxy_trip_history_write_positions"
    static let sql = "SELECT partition, lsn::text, system_identifier, moves FROM trip_history_write_positions()"

    func makeBindings() -> PostgresBindings { PostgresBindings(capacity: 0) }

    func decodeRow(
        _ rows: PostgresRows, row: Int
    ) throws(PostgresError) -> (partition: Int, position: PartitionPosition) {
        guard let partition = try rows.int64(row, 0) else {
            throw PostgresError(kind: .decoding, message: "a partition's position without its number")
        }
        return (Int(partition), try PartitionPosition.decode(rows, row: row, column: 1))
    }
}

extension ProxyCall {
    /// The statement's call on a server that holds the rider's writes up to `position`: the partition function
    /// `NAME_replayed`, which refuses it with THLAG otherwise, with the position before the statement's own
    /// arguments.
    init(_ statement: Statement, replayed position: PartitionPosition) {
        let name = statement.prepared.name + "_replayed"
        let own = statement.makeBindings()
        var arguments = PostgresBindings(capacity: own.count + 3)
        arguments.append(position.lsn.description)
        arguments.append(position.server.systemIdentifier)
        arguments.append(position.server.moves)
        for value in own.values { arguments.append(value) }
        self.init(
            statement, name: name, sql: "SELECT * FROM \(name)(\(placeholders(arguments.count)))", arguments: arguments)
    }
}

/// What each rider's reads on the shards' standbys must see. Every write reports the rider with its partition's
/// position after the commit (`committed`), this instance's own and, through the change notifications, every other's; a
/// rider one of whose writes has no known position reads from the primaries. When the change listener (re)starts,
/// writes made meanwhile were never announced, so every partition's position is taken again (`floorsNeeded` until
/// `floorsTaken`) and every rider's reads must reach their partition's. Past `maximumTrackedRiders` a new rider's
/// position raises its partition's floor instead. A floor taken or raised drops the partition's riders whose own
/// positions it covers, making room again.
final class ShardReadYourWrites: Sendable {
    /// What a read of one rider must see.
    enum Requirement: Equatable, Sendable {
        /// The position of every partition must be taken first (listening just (re)started), for `epoch`.
        case floorsNeeded(epoch: Int)
        /// A position the rider's standby must have replayed.
        case replayed(PartitionPosition)
        /// Only the primary is known to hold the rider's writes.
        case primary
    }

    private enum Known: Equatable {
        case position(PartitionPosition)
        case unknown
    }

    private struct State {
        /// Each partition's riders with a position of their own, or with none known.
        var riders: [Int: [RiderID: Known]] = [:]
        /// How many riders `riders` holds.
        var tracked = 0
        /// Each partition's position when listening last (re)started, raised by riders not tracked; nil until
        /// taken.
        var floors: [Int: PartitionPosition]?
        var epoch = 0
        /// When every partition's position was last asked for while none was taken.
        var floorsAsked: ContinuousClock.Instant?

        /// Drops the riders of `partition` whose own positions `floor` covers: their reads require the floor
        /// anyway.
        mutating func prune(_ partition: Int, coveredBy floor: PartitionPosition) {
            guard let riders = riders[partition] else { return }
            let kept = riders.filter { entry in
                guard case .position(let known) = entry.value else { return true }
                return floor.covering(known) != floor
            }
            tracked -= riders.count - kept.count
            self.riders[partition] = kept
        }
    }

    private let state = Mutex(State())
    private let placement: RiderPlacement
    private let maximumTrackedRiders: Int

    init(placement: RiderPlacement, maximumTrackedRiders: Int = 100_000) {
        self.placement = placement
        self.maximumTrackedRiders = max(maximumTrackedRiders, 1)
    }

    /// The change listener listens again: every partition's position must be taken again.
    func listeningStarted() {
        state.withLock { state in
            state.floors = nil
            state.epoch += 1
        }
    }

    /// Whether every partition's position may be asked for at `now`: at most once a second until taken, so
    /// that a shard failing over does not cost every read a call on every partition.
    func mayAskFloors(at now: ContinuousClock.Instant) -> Bool {
        state.withLock { state in
            if let asked = state.floorsAsked, now - asked < .seconds(1) { return false }
            state.floorsAsked = now
            return true
        }
    }

    /// Every partition's position, taken after `listeningStarted` of `epoch`; ignored when listening restarted
    /// since.
    func floorsTaken(_ positions: [Int: PartitionPosition], epoch: Int) {
        state.withLock { state in
            guard state.epoch == epoch else { return }
            state.floors = positions
            state.floorsAsked = nil
            for (partition, floor) in positions { state.prune(partition, coveredBy: floor) }
        }
    }

    func requirement(for riderID: RiderID) -> Requirement {
        state.withLock { state in
            guard let floors = state.floors else { return .floorsNeeded(epoch: state.epoch) }
            let partition = placement.partition(of: riderID)
            guard let floor = floors[partition] else { return .primary }
            switch state.riders[partition]?[riderID] {
            case nil: return .replayed(floor)
            case .unknown?: return .primary
            case .position(let position)?: return .replayed(position.covering(floor))
            }
        }
    }

    /// A write of `riderID` committed before `position` was taken on its partition; nil when no position could
    /// be taken.
    func committed(riderID: RiderID, at position: PartitionPosition?) {
        let partition = placement.partition(of: riderID)
        state.withLock { state in
            let known = state.riders[partition]?[riderID]
            if known == nil && state.tracked >= maximumTrackedRiders {
                if let position, let floor = state.floors?[partition] {
                    let raised = position.covering(floor)
                    state.floors?[partition] = raised
                    state.prune(partition, coveredBy: raised)
                } else {
                    // No floor to raise with certainty: every partition's position is taken again.
                    state.floors = nil
                    state.epoch += 1
                }
                return
            }
            if known == nil { state.tracked += 1 }
            // An unknown position stays unknown: a later write's position may have been taken before the
            // unknown write committed.
            switch (known, position) {
            case (.unknown?, _), (_, nil): state.riders[partition, default: [:]][riderID] = .unknown
            case (.position(let known)?, let position?):
                state.riders[partition, default: [:]][riderID] = .position(position.covering(known))
            case (nil, let position?): state.riders[partition, default: [:]][riderID] = .position(position)
            }
        }
    }
}

/// The riders' reads on the shards' standbys, with read-your-writes: each read is the statement's `_replayed`
/// call on the rider's partition's standby (`PartitionRoutes`, docs/scaling.md) with the position the rider's
/// partition must have replayed (`ShardReadYourWrites`), once the change-feed barrier proved that every
/// write acknowledged before the read was announced here. A standby behind the position, or on another server
/// than the position's, refuses the call (THLAG), and the read goes to the primaries, as when the feed is not
/// listening or a rider's position is unknown.
public struct ShardStandbyReads: Sendable {
    /// Where a rider's read goes.
    enum Route: Equatable {
        /// The standby cluster, with the position its server must have replayed.
        case standby(PartitionPosition)
        /// The primaries, and why (the routing metrics' reason).
        case primaries(ReadRoutingMetrics.Reason)
    }

    private let routing: PostgresReadRouting
    private let tracker: ShardReadYourWrites

    /// `routing`'s reader reaches the proxy with the standby cluster named (the analysts' reads), its writer the
    /// proxy; it has the change feed's barrier (on the listener of the proxy's notifications), and counts and
    /// retries the reads. `partitions` is the topology's number. Nil without a reader.
    public init?(routing: PostgresReadRouting, partitions: Int, maximumTrackedRiders: Int = 100_000) {
        guard routing.reader != nil, let placement = RiderPlacement(partitions: partitions) else { return nil }
        self.routing = routing
        tracker = ShardReadYourWrites(placement: placement, maximumTrackedRiders: maximumTrackedRiders)
    }

    /// The change listener listens again: what was written meanwhile was never announced.
    public func listeningStarted() {
        tracker.listeningStarted()
    }

    /// A change notification's payload: `RIDER LSN SYSTEM_IDENTIFIER MOVES` after a write whose position was
    /// taken, `RIDER` after one whose position was not; anything else announces changes of unknown riders.
    public func announced(_ payload: String) {
        switch Self.announcement(payload) {
        case .rider(let riderID, let position): committed(riderID: riderID, at: position)
        case .unknownRiders: tracker.listeningStarted()
        }
    }

    /// What a change notification's payload announces.
    enum Announcement: Equatable {
        /// A write of the rider, with its partition's position after it when one was taken.
        case rider(RiderID, PartitionPosition?)
        /// Writes of riders not named.
        case unknownRiders
    }

    static func announcement(_ payload: String) -> Announcement {
        let rider = payload.prefix { $0 != " " }
        guard let riderID = RiderID(rider) else { return .unknownRiders }
        let rest = payload.dropFirst(rider.count + 1)
        return .rider(riderID, rest.isEmpty ? nil : PartitionPosition(text: rest))
    }

    /// A write of `riderID` committed before `position` was taken; nil when none could be.
    func committed(riderID: RiderID, at position: PartitionPosition?) {
        tracker.committed(riderID: riderID, at: position)
    }

    /// Runs a read of `riderID`: `body` with the position the rider's partition's standby must have replayed
    /// when the read goes to the standbys, where a refusal (THLAG) or a failure retries it on the primaries;
    /// with nil (on the primaries) otherwise.
    func read<T>(_ riderID: RiderID, _ body: (PartitionPosition?) async throws -> T) async throws -> T {
        switch await route(for: riderID) {
        case .primaries(let reason):
            return try await routing.riderReadOnWriter(because: reason) { _ in try await body(nil) }
        case .standby(let position):
            let reader = routing.reader
            return try await routing.riderReadOnReader { pool in
                guard pool === reader else { return try await body(nil) }
                do {
                    return try await body(position)
                } catch let error as PostgresError where error.sqlState == "THLAG" {
                    throw ReplicaBehind()
                }
            }
        }
    }

    /// Where a read of `riderID` starting now goes. Takes every partition's position from the writer when
    /// listening (re)started.
    func route(for riderID: RiderID) async -> Route {
        guard routing.isFeedListening else { return .primaries(.feedNotListening) }
        guard await routing.awaitCurrent() else { return .primaries(.barrierFailed) }
        switch tracker.requirement(for: riderID) {
        case .primary:
            return .primaries(.riderNotReplayed)
        case .replayed(let position):
            return .standby(position)
        case .floorsNeeded(let epoch):
            guard tracker.mayAskFloors(at: .now), let rows = try? await routing.writer.read(PartitionWritePositions())
            else {
                return .primaries(.readerFailed)
            }
            tracker.floorsTaken(
                Dictionary(rows.map { ($0.partition, $0.position) }, uniquingKeysWith: { $0.covering($1) }),
                epoch: epoch)
            guard case .replayed(let position) = tracker.requirement(for: riderID) else {
                return .primaries(.riderNotReplayed)
            }
            return .standby(position)
        }
    }

}
