public import Foundation

/// Aggregates of the matching trips requested in one calendar period, or in one period and one value of the
/// query's dimension.
public struct TripStatsBucket: Hashable, Sendable {
    /// The instant the period starts (local midnight in the query's zone).
    public let start: Date
    /// The city or product the bucket's trips share when the query had a dimension, nil otherwise.
    public let dimensionValue: String?
    public let trips: Int64
    public let completed: Int64
    public let canceled: Int64
    /// Sum of fares (cancellation fees included) per currency, in minor units; currencies never mix.
    public let fareTotals: [CurrencyCode: Int64]
    /// Sum of the tips added after the ride per currency, in minor units (0 or more).
    public let tipTotals: [CurrencyCode: Int64]
    /// Sum of the refunds per currency, in minor units (0 or less).
    public let refundTotals: [CurrencyCode: Int64]
    /// Sum of `distance_m` over all trips of the period.
    public let distanceMeters: Int64
    /// Sum of `duration_s` over the completed trips; canceled trips never rode.
    public let completedDurationSeconds: Int64

    public init(
        start: Date, dimensionValue: String? = nil, trips: Int64, completed: Int64, canceled: Int64,
        fareTotals: [CurrencyCode: Int64],
        tipTotals: [CurrencyCode: Int64], refundTotals: [CurrencyCode: Int64], distanceMeters: Int64,
        completedDurationSeconds: Int64
    ) {
        self.start = start
        self.dimensionValue = dimensionValue
        self.trips = trips
        self.completed = completed
        self.canceled = canceled
        self.fareTotals = fareTotals
        self.tipTotals = tipTotals
        self.refundTotals = refundTotals
        self.distanceMeters = distanceMeters
        self.completedDurationSeconds = completedDurationSeconds
    }

    /// Mean ride time of the completed trips in seconds, nil when none completed.
    public var meanDurationSeconds: Double? {
        completed == 0 ? nil : Double(completedDurationSeconds) / Double(completed)
    }
}
