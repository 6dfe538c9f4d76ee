/// The trips to list: a request-time range (`from` inclusive, `to` exclusive) and an outcome.
public struct TripFilter: Sendable, Hashable {
    /// Trips requested at or after this bound.
    public var from: DateBound?
    /// Trips requested before this bound.
    public var to: DateBound?
    /// Only trips that ended this way.
    public var status: TripStatus?
    /// The IANA zone of day bounds and of the display strings; without it each trip shows in its own zone.
    public var timeZone: String?
    /// Trips per page (1 to 100); the service's default (20) when nil.
    public var pageSize: Int?

    /// A filter; every part is optional.
    public init(
        from: DateBound? = nil, to: DateBound? = nil, status: TripStatus? = nil, timeZone: String? = nil,
        pageSize: Int? = nil
    ) {
        self.from = from
        self.to = to
        self.status = status
        self.timeZone = timeZone
        self.pageSize = pageSize
    }
}

/// A request-time range: `from` inclusive, `to` exclusive; either may be open.
public struct TripDateRange: Sendable, Hashable {
    /// Trips requested at or after this bound.
    public var from: DateBound?
    /// Trips requested before this bound.
    public var to: DateBound?

    /// A range; nil bounds are open.
    public init(from: DateBound? = nil, to: DateBound? = nil) {
        self.from = from
        self.to = to
    }
}
