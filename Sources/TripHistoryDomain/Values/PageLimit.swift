/// How many trips a page holds: small pages keep mobile lists fast.
public struct PageLimit: Hashable, Sendable {
    public static let range = 1...100
    public static let `default` = PageLimit(unchecked: 20)

    public let value: Int

    /// Nil outside `PageLimit.range`.
    public init?(_ value: Int) {
        guard Self.range.contains(value) else { return nil }
        self.value = value
    }

    private init(unchecked value: Int) {
        self.value = value
    }
}
