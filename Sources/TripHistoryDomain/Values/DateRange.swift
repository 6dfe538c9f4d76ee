public import Foundation

/// A half-open interval of request times, `[from, to)`; either end may be open.
public struct DateRange: Hashable, Sendable {
    public let from: Date?
    public let to: Date?

    /// All of time.
    public static let unbounded = DateRange(uncheckedFrom: nil, to: nil)

    /// Fails with `DateRangeError.empty` when both ends are given and `from` is not before `to`.
    public init(from: Date?, to: Date?) throws(DateRangeError) {
        if let from, let to, from >= to { throw .empty }
        self.from = from
        self.to = to
    }

    private init(uncheckedFrom from: Date?, to: Date?) {
        self.from = from
        self.to = to
    }

    /// Whether `date` falls inside the range.
    public func contains(_ date: Date) -> Bool {
        if let from, date < from { return false }
        if let to, date >= to { return false }
        return true
    }
}

/// Why a range could not be built.
public enum DateRangeError: Error, Hashable, Sendable {
    /// `from` is at or after `to`, so no instant could match.
    case empty
}
