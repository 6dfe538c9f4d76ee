/// The headings and row names of a printable receipt in one language, e.g. "Receipt", "From", "Driver".
public struct ReceiptLabels: Sendable, Hashable {
    /// The page's title, e.g. "Receipt".
    public let title: String
    /// The heading of the fare's lines and totals, e.g. "Charges".
    public let charges: String
    public let payment: String
    /// The heading of the trip's summary, e.g. "Trip".
    public let trip: String
    public let date: String
    /// The pickup address's row, e.g. "From".
    public let from: String
    /// The drop-off address's row, e.g. "To".
    public let to: String
    public let distance: String
    public let duration: String
    public let driver: String
    public let vehicle: String

    public init(
        title: String, charges: String, payment: String, trip: String, date: String, from: String, to: String,
        distance: String, duration: String, driver: String, vehicle: String
    ) {
        self.title = title
        self.charges = charges
        self.payment = payment
        self.trip = trip
        self.date = date
        self.from = from
        self.to = to
        self.distance = distance
        self.duration = duration
        self.driver = driver
        self.vehicle = vehicle
    }
}
