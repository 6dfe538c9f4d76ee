/// The bounds of adjustments that depend on the deployment: how long after a ride a tip is accepted.
public struct AdjustmentPolicy: Hashable, Sendable {
    /// Days after a trip's completion during which tips are accepted.
    public let tipWindowDays: Int

    public init(tipWindowDays: Int = 30) {
        self.tipWindowDays = tipWindowDays
    }

    /// A trip's tips together may be at most this many times the fare charged.
    public static let tipCapFactor: Int64 = 2
}
