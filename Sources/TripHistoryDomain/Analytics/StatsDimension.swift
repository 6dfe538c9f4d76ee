/// The recorded trip field that splits each period's stats into one bucket per value.
public enum StatsDimension: String, Sendable, Hashable, CaseIterable {
    /// The trip's city, exactly as recorded.
    case city
    /// The trip's product, exactly as recorded.
    case product
}
