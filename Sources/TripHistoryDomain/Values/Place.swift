/// A point on Earth with the street address shown for it.
public struct Place: Hashable, Sendable {
    /// Degrees north, -90...90.
    public let latitude: Double
    /// Degrees east, -180...180.
    public let longitude: Double
    public let address: String

    public init(latitude: Double, longitude: Double, address: String) {
        self.latitude = latitude
        self.longitude = longitude
        self.address = address
    }
}
