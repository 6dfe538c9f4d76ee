import Foundation
import Testing
import TripHistoryDomain
import TripHistoryFakes

@Suite struct AnalystUseCaseTests {
    let trips = InMemoryAnalystFixtures.mixed(count: 120)
    let analyst = try! AccessPolicy.analyze(caller: .analyst(subject: "ana"))

    private func filter(
        days: Double = 60, status: TripStatus? = nil, city: String? = nil, product: String? = nil, rider: Int64? = nil
    ) throws -> AnalystTripFilter {
        let from = InMemoryAnalystFixtures.start.addingTimeInterval(86_400 * 3)
        return try AnalystTripFilter(
            range: DateRange(from: from, to: from.addingTimeInterval(86_400 * days)), status: status, city: city,
            product: product, riderID: rider.flatMap { RiderID($0) }
        )
    }

    /// The filters the walk is checked with: each alone and combined.
    static let combinations: [(TripStatus?, String?, String?, Int64?)] = [
        (nil, nil, nil, nil), (.canceled, nil, nil, nil), (nil, "Paris", nil, nil), (nil, nil, "Comfort", nil),
        (nil, nil, nil, 2), (.completed, "New York", "UberX", nil), (nil, "Paris", "Comfort", 3),
        (.canceled, "Tokyo, \"Shibuya\"", nil, nil), (nil, "Nowhere", nil, nil),
    ]

    @Test(arguments: combinations)
    func walkingPagesReturnsExactlyTheMatchingTripsNewestFirst(
        status: TripStatus?, city: String?, product: String?, rider: Int64?
    ) async throws {
        let useCase = ListAnalystTrips(
            repository: InMemoryAnalystTripRepository(trips: trips), limits: AnalystQueryLimits())
        let filter = try filter(days: 40, status: status, city: city, product: product, rider: rider)
        var walked: [Trip] = []
        var position: PagePosition?
        var pages = 0
        repeat {
            let page = try await useCase.execute(
                filter: filter, limit: AnalystPageLimit(4)!, position: position, grant: analyst)
            #expect(page.trips.count <= 4)
            walked += page.trips
            position = page.next
            pages += 1
        } while position != nil && pages < 200
        // An independent model of the query: every trip, checked field by field, sorted by key.
        let expected = trips.filter { trip in
            trip.requestedAt >= filter.from && trip.requestedAt < filter.to
                && (status == nil || trip.status == status) && (city == nil || trip.details.city == city)
                && (product == nil || trip.details.product == product)
                && (rider == nil || trip.riderID.rawValue == rider)
        }.sorted { ($0.requestedAt, $0.id) > ($1.requestedAt, $1.id) }
        #expect(walked == expected)
        if city != "Nowhere" { #expect(!expected.isEmpty) }
    }

    @Test func aWindowWiderThanTheLimitIsRefusedOnTo() async throws {
        let repository = InMemoryAnalystTripRepository(trips: trips)
        let limits = AnalystQueryLimits(maximumSpanDays: 30)
        await #expect(throws: ValidationError(field: "to", reason: "must be at most 30 days after from")) {
            try await ListAnalystTrips(repository: repository, limits: limits)
                .execute(filter: try filter(days: 31), limit: .default, position: nil, grant: analyst)
        }
        let page = try await ListAnalystTrips(repository: repository, limits: limits)
            .execute(filter: try filter(days: 30), limit: .default, position: nil, grant: analyst)
        #expect(!page.trips.isEmpty)
    }

    @Test func aFilterNeedsBothEnds() throws {
        let instant = InMemoryAnalystFixtures.start
        #expect(throws: ValidationError(field: "from", reason: "is required")) {
            try AnalystTripFilter(range: DateRange(from: nil, to: instant))
        }
        #expect(throws: ValidationError(field: "to", reason: "is required")) {
            try AnalystTripFilter(range: DateRange(from: instant, to: nil))
        }
    }

    @Test(arguments: [1, 7, 33, 1000])
    func exportBatchesAreBoundedAndResumeWithoutOverlap(batchSize: Int) async throws {
        let repository = InMemoryAnalystTripRepository(trips: trips)
        let export = ExportAnalystTrips(repository: repository, limits: AnalystQueryLimits(), batchSize: batchSize)
        let filter = try filter(status: .completed)
        var batches = try export.execute(filter: filter, after: nil, grant: analyst)
        var all: [Trip] = []
        while let batch = try await batches.next() {
            #expect(batch.count <= batchSize && !batch.isEmpty)
            all += batch
        }
        let expected = trips.filter { filter.matches($0) }.sorted { TripKey($0) > TripKey($1) }
        #expect(all == expected)
        // Each query asked for at most one batch; a short batch ends the export without an extra query.
        #expect(repository.queries.allSatisfy { $0.fetchLimit == batchSize })
        #expect(repository.queries.count == expected.count / batchSize + 1)

        let cut = expected.count / 3
        var resumed = try export.execute(filter: filter, after: TripKey(expected[cut - 1]), grant: analyst)
        var rest: [Trip] = []
        while let batch = try await resumed.next() { rest += batch }
        #expect(Array(expected.prefix(cut)) + rest == expected)
    }
}
