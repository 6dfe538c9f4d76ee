/// A trip's receipt as a rider sees it, every label and amount a finished string in one locale: the fare's
/// lines, what changed the money after the ride, the total, the payment and a summary of the ride.
public struct ReceiptDisplay: Sendable, Hashable {
    /// The locale every string is written in.
    public let locale: SupportedLocale
    /// The fare's breakdown as recorded, or one line of kind `fare` for the whole fare when none was.
    /// They sum to `fare.amountMinor`.
    public let lines: [ReceiptLine]
    /// What was charged when the trip was recorded.
    public let fare: ReceiptAmount
    /// The sums of the trip's tips, refunds and fare corrections, each nil when zero.
    public let tips: ReceiptAmount?
    public let refunds: ReceiptAmount?
    public let corrections: ReceiptAmount?
    /// What the rider paid in the end: the fare plus every adjustment.
    public let total: ReceiptAmount
    /// The ISO 4217 code of every amount.
    public let currency: String
    /// How the trip was paid, when recorded.
    public let payment: ReceiptPayment?
    public let trip: ReceiptTripSummary
    /// The page's headings and row names.
    public let labels: ReceiptLabels

    public init(
        locale: SupportedLocale, lines: [ReceiptLine], fare: ReceiptAmount, tips: ReceiptAmount?,
        refunds: ReceiptAmount?, corrections: ReceiptAmount?, total: ReceiptAmount, currency: String,
        payment: ReceiptPayment?, trip: ReceiptTripSummary, labels: ReceiptLabels
    ) {
        self.locale = locale
        self.lines = lines
        self.fare = fare
        self.tips = tips
        self.refunds = refunds
        self.corrections = corrections
        self.total = total
        self.currency = currency
        self.payment = payment
        self.trip = trip
        self.labels = labels
    }
}

/// An amount of a receipt: its label, its value in minor units and that value formatted with its currency,
/// e.g. "Total", 1834, "$18.34".
public struct ReceiptAmount: Sendable, Hashable {
    public let label: String
    public let amountMinor: Int64
    public let amount: String

    public init(label: String, amountMinor: Int64, amount: String) {
        self.label = label
        self.amountMinor = amountMinor
        self.amount = amount
    }
}

/// A line of the fare: its kind as the API names it (`base`, `promotion`, or `fare` for a fare without
/// breakdown) and its amount.
public struct ReceiptLine: Sendable, Hashable {
    public let kind: String
    public let amount: ReceiptAmount

    public init(kind: String, amount: ReceiptAmount) {
        self.kind = kind
        self.amount = amount
    }
}

/// The payment of a receipt: the method as the API names it and how to show it, e.g. "Visa •••• 4242".
public struct ReceiptPayment: Sendable, Hashable {
    public let method: String
    public let label: String

    public init(method: String, label: String) {
        self.method = method
        self.label = label
    }
}

/// The ride a receipt is for, as display strings: the request's day and time in the display zone, the
/// pickup and drop-off addresses, distance, duration, and the driver and car when recorded.
public struct ReceiptTripSummary: Sendable, Hashable {
    public let date: String
    public let time: String
    public let from: String
    public let to: String
    public let distance: String
    public let duration: String
    /// The driver's first name.
    public let driver: String?
    /// The car, e.g. "Toyota Prius · White · AB-123-CD".
    public let vehicle: String?

    public init(
        date: String, time: String, from: String, to: String, distance: String, duration: String, driver: String?,
        vehicle: String?
    ) {
        self.date = date
        self.time = time
        self.from = from
        self.to = to
        self.distance = distance
        self.duration = duration
        self.driver = driver
        self.vehicle = vehicle
    }
}
