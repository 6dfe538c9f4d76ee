/// An inclusive range of rider ids, written `FIRST-LAST` or a single `ID`, for issuing many rider tokens at once
/// (`trip-history token --role rider --riders 1-100000`).
public struct RiderIDRange: Sendable, Equatable {
    /// The most ids one range may hold, so a typo cannot ask for billions of tokens.
    public static let maximumCount: Int64 = 10_000_000

    /// The first rider id, at least 1.
    public let first: Int64
    /// The last rider id, at least `first`.
    public let last: Int64

    /// The ids `first...last`; nil unless `1 <= first <= last` and the range holds at most `maximumCount` ids.
    public init?(first: Int64, last: Int64) {
        guard first >= 1, last >= first, last - first < Self.maximumCount else { return nil }
        self.first = first
        self.last = last
    }

    /// Parses `FIRST-LAST` or `ID` (decimal digits only, no sign or spaces); nil for anything else.
    public init?(_ text: String) {
        let parts = text.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard let first = parts.first.flatMap(Self.decimal) else { return nil }
        let last = parts.count == 2 ? Self.decimal(parts[1]) : first
        guard let last else { return nil }
        self.init(first: first, last: last)
    }

    /// How many ids the range holds.
    public var count: Int64 { last - first + 1 }

    private static func decimal(_ text: Substring) -> Int64? {
        guard !text.isEmpty, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
            return nil
        }
        return Int64(text)
    }
}
