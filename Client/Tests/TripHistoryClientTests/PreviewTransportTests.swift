import Foundation
import Testing
import TripHistoryClient
import TripHistoryListModel

/// The preview transport answers the client's calls the way the service does, for every state a screen shows.
@Suite struct PreviewTransportTests {
    @Test func pagesFollowTheirCursorsThroughEverySampleNewestFirst() async throws {
        let client = TripHistoryClient.preview(.trips(count: 45))
        let first = try await client.page(rider: "7")
        #expect(first.trips.count == 20)
        #expect(first.hasMore)
        #expect(first.previousCursor == nil)
        #expect(first.trips.allSatisfy { $0.riderId == "7" })

        var trips: [Trip] = []
        for try await page in client.pages(rider: "7", filter: TripFilter(pageSize: 8)) {
            trips += page.trips
        }
        #expect(trips.count == 45)
        #expect(Set(trips.map(\.id)).count == 45)
        #expect(zip(trips, trips.dropFirst()).allSatisfy { $0.requestedAt > $1.requestedAt })

        let last = try await client.page(rider: "7", cursor: first.nextCursor)
        let back = try await client.page(rider: "7", cursor: last.previousCursor)
        #expect(back.trips.map(\.id) == first.trips.map(\.id))
    }

    @Test func theFiltersApplyToTheSamples() async throws {
        let client = TripHistoryClient.preview(.trips(count: 45))
        let canceled = try await client.page(rider: "1", filter: TripFilter(status: .canceled, pageSize: 100))
        #expect(!canceled.trips.isEmpty)
        #expect(canceled.trips.allSatisfy { $0.outcome == .known(.canceled) && $0.completedAt == nil })

        let all = try await client.page(rider: "1", filter: TripFilter(pageSize: 100)).trips
        let newestDay = all[0].requestedAt
        let range = TripFilter(
            from: .instant(newestDay.addingTimeInterval(-10 * 86_400)), to: .instant(newestDay), pageSize: 100)
        let inRange = try await client.page(rider: "1", filter: range)
        #expect(!inRange.trips.isEmpty)
        #expect(inRange.trips.count < all.count)
        #expect(inRange.trips.allSatisfy { $0.requestedAt < newestDay })
        #expect(inRange.requestedBefore == newestDay)

        let day = try #require(DateBound("2026-02-01"))
        let paris = try await client.page(
            rider: "1", filter: TripFilter(to: day, timeZone: "Europe/Paris", pageSize: 100))
        let midnightInParis = try #require(ISO8601DateFormatter().date(from: "2026-01-31T23:00:00Z"))
        #expect(paris.requestedBefore == midnightInParis)
        #expect(paris.trips.allSatisfy { $0.requestedAt < midnightInParis })
    }

    @Test func aDetailHasItsReceiptAndATippedOneItsTip() async throws {
        let client = TripHistoryClient.preview(.trips(count: 12))
        let rows = try await client.page(rider: "1", filter: TripFilter(pageSize: 12)).trips
        let tipped = try #require(rows.first { $0.fare.tipsMinor > 0 })
        let detail = try await client.trip(rider: "1", id: tipped.id)
        let receipt = TripReceipt(trip: detail)
        #expect(receipt.lines.map(\.amountMinor).reduce(0, +) == receipt.chargedMinor)
        #expect(receipt.adjustments.map(\.amountMinor) == [receipt.tipsMinor])
        #expect(receipt.totalMinor == receipt.chargedMinor + receipt.tipsMinor)

        let missing = await #expect(throws: TripHistoryError.self) {
            try await client.trip(rider: "1", id: "42")
        }
        #expect(missing?.isNotFound == true)
    }

    @Test func nothingEverChangesSoARevalidationIsA304() async throws {
        let client = TripHistoryClient.preview()
        #expect(try await client.firstPage(rider: "1").changed)
        #expect(try await client.firstPage(rider: "1").changed == false)

        guard case .page(let start) = try await client.changes(rider: "1") else {
            Issue.record("the feed's first answer is a page")
            return
        }
        #expect(start.changes.isEmpty)
        let again = try await client.changes(rider: "1", since: start.nextSince, ifNoneMatch: start.etag)
        #expect(again == .notModified)
    }

    @Test func sampleTripsAreTheRowsItServes() async throws {
        let samples = PreviewTransport.sampleTrips(count: 7)
        let served = try await TripHistoryClient.preview(.trips(count: 7)).page(rider: "1").trips
        #expect(samples == served)
        #expect(samples.map(\.display.status).contains("Canceled"))
    }

    @available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
    @MainActor
    @Test func theListModelShowsEveryStateFromIt() async {
        let loaded = TripListViewModel(client: .preview(.trips(count: 45)), rider: "1")
        await loaded.load()
        guard case .loaded(let trips, canLoadMore: true) = loaded.state else {
            Issue.record("expected a first page with more to load, got \(loaded.state)")
            return
        }
        await loaded.loadMore()
        #expect(
            loaded.state
                == .loaded(trips: trips + Array(PreviewTransport.sampleTrips(count: 40)[20...]), canLoadMore: true))
        await loaded.refresh()
        #expect(loaded.lastRefresh?.source == .changes)
        #expect(loaded.lastRefresh?.tripsTransferred == 0)

        let empty = TripListViewModel(client: .preview(.empty), rider: "1")
        await empty.load()
        #expect(empty.state == .empty)

        let down = TripListViewModel(client: .preview(.unavailable), rider: "1")
        await down.load()
        guard case .failed(let error, canRetry: true) = down.state else {
            Issue.record("expected a recoverable failure, got \(down.state)")
            return
        }
        #expect(error.status == 503)

        let refused = TripListViewModel(client: .preview(.unauthorized), rider: "1")
        await refused.load()
        guard case .failed(let refusal, canRetry: false) = refused.state else {
            Issue.record("expected a final failure, got \(refused.state)")
            return
        }
        #expect(refusal.isUnauthorized)
    }
}
