/// How many trips one page of the analyst list holds: larger than a rider's pages, as analysts read in bulk.
public struct AnalystPageLimit: Hashable, Sendable {
    public static let range = 1...1000
    public static let `default` = AnalystPageLimit(unchecked: 100)

    public let value: Int

    /// Nil outside `AnalystPageLimit.range`.
    public init?(_ value: Int) {
        guard Self.range.contains(value) else { return nil }
        self.value = value
    }

    private init(unchecked value: Int) {
        self.value = value
    }
}
