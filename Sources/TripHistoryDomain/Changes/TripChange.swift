/// One entry of a rider's changes feed.
public enum TripChange: Hashable, Sendable {
    /// The trip was recorded or adjusted; this is how it stands now.
    case upsert(Trip)
    /// The trip no longer exists (erased or past retention); an app drops its copy.
    case erased(TripID)
}

/// A place in a rider's changes feed: every change at or before it has been handed out, none after it.
///
/// Each of a rider's changes takes the next number of the rider's own sequence, under a lock on the rider's
/// counter held until its transaction ends; so a rider's changes become visible in the order of their numbers,
/// and a reader that follows positions never skips a change that committed late nor sees one twice.
public struct ChangePosition: Hashable, Comparable, Sendable {
    /// The number of the last change handed out; 0 before the rider's first change.
    public let sequence: Int64

    public init(sequence: Int64) {
        self.sequence = sequence
    }

    /// Before every change.
    public static let start = ChangePosition(sequence: 0)

    public static func < (lhs: ChangePosition, rhs: ChangePosition) -> Bool { lhs.sequence < rhs.sequence }
}

/// A place in the analysts' feed of every rider's changes: every change at or before it has been handed out,
/// none after it.
///
/// Changes are ordered by the id of the transaction that wrote them, then rider and the rider's sequence. A
/// read returns only changes of transactions older than every transaction still running (the snapshot's
/// `xmin`), which have all ended: so no change can later appear before a position already handed out, and a
/// reader that follows positions never skips a change nor sees one twice, whatever order transactions
/// commit in.
public struct AnalystChangePosition: Hashable, Comparable, Sendable {
    /// The writing transaction's id (PostgreSQL's 64-bit `xid8`).
    public let transaction: UInt64
    /// The rider of the last change handed out in that transaction; 0 before every rider's.
    public let riderID: Int64
    /// That change's number in its rider's sequence.
    public let sequence: Int64

    public init(transaction: UInt64, riderID: Int64, sequence: Int64) {
        self.transaction = transaction
        self.riderID = riderID
        self.sequence = sequence
    }

    public static func < (lhs: AnalystChangePosition, rhs: AnalystChangePosition) -> Bool {
        (lhs.transaction, lhs.riderID, lhs.sequence) < (rhs.transaction, rhs.riderID, rhs.sequence)
    }
}

/// One read of a rider's changes feed.
public typealias ChangePage = FeedPage<ChangePosition>

/// Where a reader of the analysts' feed stands: one position on one PostgreSQL, or one per logical partition of
/// the sharded topology, with the topology those positions were read on. Transaction ids are a server's own, so
/// a partition's position means something only on the server that handed it out: once a partition has moved, its
/// position is refused (`TripHistoryError.feedTopologyChanged`) rather than read on another server's ids.
public enum AnalystFeedPosition: Hashable, Sendable {
    case node(AnalystChangePosition)
    /// `topology` fingerprints which server holds each partition; `positions` has one entry per partition, in
    /// partition order.
    case partitioned(topology: UInt64, positions: [AnalystChangePosition])
}

/// One read of the analysts' feed of every rider's changes.
public typealias AnalystChangePage = FeedPage<AnalystFeedPosition>

/// One read of a changes feed.
public struct FeedPage<Position: Hashable & Sendable>: Hashable, Sendable {
    /// Oldest first; a trip changed several times within the page appears once, as it stands now.
    public let changes: [TripChange]
    /// Where the next read starts.
    public let next: Position
    /// Whether more changes follow `next` right now.
    public let hasMore: Bool

    public init(changes: [TripChange], next: Position, hasMore: Bool) {
        self.changes = changes
        self.next = next
        self.hasMore = hasMore
    }
}

extension TripChange {
    /// The trip this change is about.
    public var tripID: TripID {
        switch self {
        case .upsert(let trip): trip.id
        case .erased(let id): id
        }
    }
}

/// The bounds of a changes-feed page.
public enum ChangePageBounds: PageLimitBounds {
    public static var range: ClosedRange<Int> { 1...200 }
    public static var defaultValue: Int { 50 }
}

/// How many changes one read of the feed returns at most.
public typealias ChangePageLimit = BoundedPageLimit<ChangePageBounds>
