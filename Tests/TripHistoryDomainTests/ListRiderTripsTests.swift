import Foundation
import Testing
import TripHistoryDomain
import TripHistoryFakes

@Suite struct ListRiderTripsTests {
    let history = TripFixtures.history(count: 47, sharedTimes: 4)

    /// The grant of a rider reading their own trips.
    private func owner(_ rider: Int64) throws -> RiderReadGrant {
        try AccessPolicy.read(riderID: RiderID(rider)!, caller: .rider(RiderID(rider)!))
    }

    private func walk(
        _ useCase: ListRiderTrips<InMemoryTripRepository>, limit: Int, filter: TripFilter = .all
    ) async throws -> [TripPage] {
        var pages: [TripPage] = []
        var position: PagePosition?
        repeat {
            let page = try await useCase.execute(
                try owner(1), filter: filter, limit: PageLimit(limit)!, position: position)
            pages.append(page)
            position = page.next
        } while position != nil && pages.count < 100
        return pages
    }

    @Test(arguments: [1, 4, 5, 20, 47, 100])
    func forwardWalkReturnsEveryTripOnceNewestFirst(limit: Int) async throws {
        let useCase = ListRiderTrips(repository: InMemoryTripRepository(trips: history))
        let pages = try await walk(useCase, limit: limit)
        let walked = pages.flatMap(\.trips)
        let expected = history.sorted { TripKey($0) > TripKey($1) }
        #expect(walked == expected)
        #expect(pages.allSatisfy { $0.trips.count <= limit })
        #expect(pages.last?.hasMore == false)
        #expect(pages.first?.previous == nil)
        #expect(pages.dropFirst().allSatisfy { $0.previous != nil })
    }

    @Test func backwardPagingReturnsTheSamePagesInReverse() async throws {
        let useCase = ListRiderTrips(repository: InMemoryTripRepository(trips: history))
        let forward = try await walk(useCase, limit: 10)
        var position = forward.last?.previous
        var backward: [[Trip]] = []
        while let current = position {
            let page = try await useCase.execute(try owner(1), filter: .all, limit: PageLimit(10)!, position: current)
            backward.append(page.trips)
            #expect(page.next != nil)
            position = page.previous
        }
        #expect(backward == forward.dropLast().reversed().map(\.trips))
    }

    @Test func filterRestrictsEveryPage() async throws {
        let useCase = ListRiderTrips(repository: InMemoryTripRepository(trips: history))
        let from = history[10].requestedAt
        let to = history[30].requestedAt
        let filter = TripFilter(range: try DateRange(from: from, to: to), status: .completed)
        let walked = try await walk(useCase, limit: 3, filter: filter).flatMap(\.trips)
        let expected = history.filter { $0.requestedAt >= from && $0.requestedAt < to && $0.status == .completed }
            .sorted { TripKey($0) > TripKey($1) }
        #expect(walked == expected)
        #expect(!walked.isEmpty)
    }

    @Test func anAnalystGrantReadsTheRidersPage() async throws {
        let useCase = ListRiderTrips(repository: InMemoryTripRepository(trips: history))
        let grant = try AccessPolicy.read(riderID: RiderID(1)!, caller: .analyst(subject: "a"))
        let analystPage = try await useCase.execute(grant, filter: .all, limit: .default, position: nil)
        #expect(analystPage.trips.count == 20)
    }

    @Test func emptyHistoryHasNoNeighbours() async throws {
        let useCase = ListRiderTrips(repository: InMemoryTripRepository())
        let page = try await useCase.execute(try owner(9), filter: .all, limit: .default, position: nil)
        #expect(page.trips.isEmpty)
        #expect(page.next == nil && page.previous == nil && !page.hasMore)
    }
}
