import Foundation

/// How many trips each seeded rider gets. Every count depends only on `(seed, rider)`, so a rider's trips
/// are the same whatever range or chunking it is seeded with.
public enum SeedDistribution: Sendable, Equatable {
    /// Exactly `tripsPerRider` trips for every rider (demos and tests rely on the exact count).
    case uniform(tripsPerRider: Int)
    /// A heavy-tailed count whose mean is about `meanTripsPerRider`: log-normal with sigma 1.5, rounded,
    /// at least 1 and at most `250 x mean`. With a mean of 100 the median rider has about 32 trips, one
    /// rider in a hundred over a thousand, and the heaviest of 100,000 riders well over ten thousand.
    /// The draw goes through `log`, `cos` and `exp`, so two platforms whose math libraries round a last bit
    /// differently could, rarely, give a rider one trip more or less; on one platform it never varies.
    case skewed(meanTripsPerRider: Int)

    /// The log-normal shape parameter of `.skewed`.
    static let sigma = 1.5
    /// The cap of `.skewed`, as a multiple of the mean, so one unlucky draw cannot dominate a run.
    static let capMultiple = 250

    /// The trips rider `rider` gets under seed `seed`. Drawn from its own stream, separate from the stream
    /// of the trips' fields, so `.uniform` rows are those of earlier versions.
    public func tripCount(rider: Int, seed: UInt64) -> Int {
        switch self {
        case .uniform(let tripsPerRider):
            return tripsPerRider
        case .skewed(let mean):
            guard mean > 0 else { return 0 }
            var random = SplitMix64(
                seed: seed ^ (UInt64(truncatingIfNeeded: rider) &* 0x9FB2_1C65_1E98_DF25) ^ 0x5EED_C0DE)
            _ = random.next()
            // Box-Muller: u1 in (0, 1] so the logarithm is finite.
            let u1 = 1.0 - random.unit()
            let u2 = random.unit()
            let normal = (-2.0 * log(u1)).squareRoot() * cos(2.0 * Double.pi * u2)
            let mu = log(Double(mean)) - Self.sigma * Self.sigma / 2
            let drawn = exp(mu + Self.sigma * normal).rounded()
            let cap = mean.multipliedReportingOverflow(by: Self.capMultiple)
            let upper = Double(cap.overflow ? Int.max : cap.partialValue)
            return Int(min(max(drawn, 1), upper))
        }
    }

    /// The rows seeding `riders` writes: the sum of their counts, computed without generating any trip.
    public func totalTrips(riders: ClosedRange<Int>, seed: UInt64) -> Int {
        if case .uniform(let tripsPerRider) = self { return riders.count * tripsPerRider }
        var total = 0
        for rider in riders { total += tripCount(rider: rider, seed: seed) }
        return total
    }
}
