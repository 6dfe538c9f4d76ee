/// The page sizes one API accepts.
public protocol PageLimitBounds: Sendable {
    /// The sizes a client may ask for.
    static var range: ClosedRange<Int> { get }
    /// The size of a page when the client names none; within `range`.
    static var defaultValue: Int { get }
}

/// How many trips a page holds, within the bounds `Bounds` sets: checked once where the request is read, and
/// typed by its API so that a use case never receives another API's page size.
public struct BoundedPageLimit<Bounds: PageLimitBounds>: Hashable, Sendable {
    public static var range: ClosedRange<Int> { Bounds.range }
    public static var `default`: Self { Self(unchecked: Bounds.defaultValue) }

    public let value: Int

    /// Nil outside `range`.
    public init?(_ value: Int) {
        guard Self.range.contains(value) else { return nil }
        self.value = value
    }

    private init(unchecked value: Int) {
        self.value = value
    }
}

/// The bounds of a rider's pages: small pages keep mobile lists fast.
public enum RiderPageBounds: PageLimitBounds {
    public static var range: ClosedRange<Int> { 1...100 }
    public static var defaultValue: Int { 20 }
}

/// How many trips one page of a rider's list holds.
public typealias PageLimit = BoundedPageLimit<RiderPageBounds>
