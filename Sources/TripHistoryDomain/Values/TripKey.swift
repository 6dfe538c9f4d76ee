import Foundation

/// Where a trip sits in a rider's history: newest first by request time, ties broken by id.
/// Pages are cut at keys, never at offsets, so a page deep in a history costs what the first page costs.
public struct TripKey: Hashable, Sendable, Comparable {
    /// Request time in whole microseconds since 1970, the store's precision, so keys compare exactly.
    public let requestedAtMicros: Int64
    public let id: TripID

    public init(requestedAtMicros: Int64, id: TripID) {
        self.requestedAtMicros = requestedAtMicros
        self.id = id
    }

    public init(_ trip: Trip) {
        self.init(requestedAtMicros: Timestamp.micros(trip.requestedAt), id: trip.id)
    }

    /// Ascending order: the smaller key is the older trip.
    public static func < (lhs: TripKey, rhs: TripKey) -> Bool {
        (lhs.requestedAtMicros, lhs.id.rawValue) < (rhs.requestedAtMicros, rhs.id.rawValue)
    }
}

/// Which way a page reads from its key.
public enum PageDirection: UInt8, Sendable, Hashable {
    /// Trips older than the key: scrolling down the list.
    case older = 0
    /// Trips newer than the key: going back up towards the first page.
    case newer = 1
}

/// A page request's starting point: the key of the trip next to the page, and the side to read.
public struct PagePosition: Hashable, Sendable {
    public let key: TripKey
    public let direction: PageDirection

    public init(key: TripKey, direction: PageDirection) {
        self.key = key
        self.direction = direction
    }
}
