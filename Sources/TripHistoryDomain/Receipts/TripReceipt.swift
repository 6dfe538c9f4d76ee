/// What a receipt shows beyond the trip's own fields: the fare's lines, the payment, the driver and the route.
/// Each part is optional, since a reporting service may not know it; a trip recorded before receipts existed
/// has none.
public struct TripReceipt: Hashable, Sendable {
    public let breakdown: [FareLine]?
    public let payment: Payment?
    public let driver: Driver?
    public let route: EncodedRoute?

    public init(
        breakdown: [FareLine]? = nil, payment: Payment? = nil, driver: Driver? = nil, route: EncodedRoute? = nil
    ) {
        self.breakdown = breakdown
        self.payment = payment
        self.driver = driver
        self.route = route
    }

    /// A receipt with no part at all, which the store does not keep.
    public static let empty = TripReceipt()

    public var isEmpty: Bool { self == .empty }
}
