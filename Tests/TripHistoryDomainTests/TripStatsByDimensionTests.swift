import Foundation
import Testing
import TripHistoryDomain
import TripHistoryFakes

/// `GetTripStats` with a dimension: one bucket per period and value, which together add up to the period's
/// bucket without one, and a refusal naming `by` past `TripStatsQuery.maximumBuckets`.
@Suite struct TripStatsByDimensionTests {
    let analyst = try! AccessPolicy.analyze(caller: .analyst(subject: "ana"))

    private func filter(days: Double, city: String? = nil) throws -> AnalystTripFilter {
        let from = InMemoryAnalystFixtures.start
        return try AnalystTripFilter(
            range: DateRange(from: from, to: from.addingTimeInterval(86_400 * days)), city: city)
    }

    private static func stored(_ new: [NewTrip]) -> [Trip] {
        new.enumerated().map { index, trip in
            Trip(
                id: TripID(Int64(index + 1))!, riderID: trip.riderID, details: trip.details,
                lifecycle: .recorded(at: trip.details.requestedAt))
        }
    }

    @Test(arguments: StatsDimension.allCases)
    func eachPeriodsBucketsAddUpToItsBucketWithoutADimension(dimension: StatsDimension) async throws {
        let trips = InMemoryAnalystFixtures.mixed(count: 120)
        let useCase = GetTripStats(
            repository: InMemoryAnalystTripRepository(trips: trips), limits: AnalystQueryLimits())
        let filter = try filter(days: 60)
        let split = try await useCase.execute(
            TripStatsQuery(filter: filter, granularity: .week, timeZone: "Europe/Paris", dimension: dimension),
            grant: analyst)
        let whole = try await useCase.execute(
            TripStatsQuery(filter: filter, granularity: .week, timeZone: "Europe/Paris"), grant: analyst)
        #expect(whole.allSatisfy { $0.dimensionValue == nil })
        let values = dimension == .city ? InMemoryAnalystFixtures.cities : InMemoryAnalystFixtures.products
        #expect(split.allSatisfy { values.contains($0.dimensionValue ?? "") })
        // Oldest period first, then the values in byte order, each pair once.
        let order = split.map { ($0.start, Array(($0.dimensionValue ?? "").utf8)) }
        #expect(
            zip(order, order.dropFirst()).allSatisfy { left, right in
                left.0 < right.0 || (left.0 == right.0 && left.1.lexicographicallyPrecedes(right.1))
            })
        #expect(Set(split.map(\.start)) == Set(whole.map(\.start)))
        for period in whole {
            let parts = split.filter { $0.start == period.start }
            #expect(parts.reduce(0) { $0 + $1.trips } == period.trips)
            #expect(parts.reduce(0) { $0 + $1.canceled } == period.canceled)
            #expect(parts.reduce(0) { $0 + $1.distanceMeters } == period.distanceMeters)
            #expect(
                parts.reduce(into: [CurrencyCode: Int64]()) { sum, part in
                    sum.merge(part.fareTotals, uniquingKeysWith: +)
                }
                    == period.fareTotals)
        }
    }

    @Test func moreBucketsThanTheCapAreRefusedNamingBy() async throws {
        let day = InMemoryAnalystFixtures.start.addingTimeInterval(3600)
        let trips = Self.stored(
            (0...TripStatsQuery.maximumBuckets).map { index in
                InMemoryAnalystFixtures.newTrip(rider: 1, city: "City \(index)", requestedAt: day)
            })
        let filter = try filter(days: 1)
        let atTheCap = GetTripStats(
            repository: InMemoryAnalystTripRepository(trips: Array(trips.dropLast())), limits: AnalystQueryLimits())
        let buckets = try await atTheCap.execute(
            TripStatsQuery(filter: filter, granularity: .day, timeZone: "UTC", dimension: .city), grant: analyst)
        #expect(buckets.count == TripStatsQuery.maximumBuckets)
        let pastTheCap = GetTripStats(
            repository: InMemoryAnalystTripRepository(trips: trips), limits: AnalystQueryLimits())
        await #expect {
            _ = try await pastTheCap.execute(
                TripStatsQuery(filter: filter, granularity: .day, timeZone: "UTC", dimension: .city), grant: analyst)
        } throws: { error in
            (error as? ValidationError)?.field == "by"
        }
        // The same trips split by product make one bucket, and without a dimension one per period.
        for dimension in [StatsDimension.product, nil] {
            let query = TripStatsQuery(filter: filter, granularity: .day, timeZone: "UTC", dimension: dimension)
            let answer = try await pastTheCap.execute(query, grant: analyst)
            #expect(answer.map(\.trips) == [Int64(trips.count)])
        }
    }
}
