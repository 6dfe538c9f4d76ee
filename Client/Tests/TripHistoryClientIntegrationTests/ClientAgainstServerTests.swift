import Foundation
import Testing
import TripHistoryClient
import TripHistoryListModel

// Serialized: one test records a trip for the rider whose history the others compare with the database.
@Suite(
    .serialized,
    .enabled(if: IntegrationEnvironment.shouldRun, "needs scripts/test-client's server (or CI, where it fails)"))
struct ClientAgainstServerTests {
    @Test func aWholeHistoryWalkedForwardAndBackMatchesTheDatabase() async throws {
        let environment = try IntegrationEnvironment.required()
        let client = environment.client(token: environment.riderToken)
        let filter = TripFilter(pageSize: 10)
        let expected = try environment.query(
            "SELECT id FROM trips WHERE rider_id = \(environment.rider) ORDER BY requested_at DESC, id DESC")
        #expect(expected.count > 10)

        var forward: [String] = []
        for try await trip in client.trips(rider: environment.rider, filter: filter) {
            #expect(trip.riderId == environment.rider)
            #expect(!trip.display.title.isEmpty)
            forward.append(trip.id)
        }
        #expect(forward == expected)

        var pages: [TripListPage] = []
        for try await page in client.pages(rider: environment.rider, filter: filter) { pages.append(page) }
        let last = try #require(pages.last)
        #expect(last.hasMore == false)
        var backward: [[String]] = [last.trips.map(\.id)]
        for try await page in client.pages(
            rider: environment.rider, filter: filter, adjacentTo: last, direction: .newer)
        {
            backward.append(page.trips.map(\.id))
        }
        #expect(backward.count == pages.count)
        #expect(Array(backward.reversed().joined()) == expected)
    }

    @Test func aFilteredWalkMatchesTheDatabase() async throws {
        let environment = try IntegrationEnvironment.required()
        let client = environment.client(token: environment.riderToken)
        // The request day of the rider's middle trip, so the range cuts the history in two.
        let days = try environment.query(
            """
            SELECT to_char(requested_at AT TIME ZONE 'Europe/Paris', 'YYYY-MM-DD') FROM trips
            WHERE rider_id = \(environment.rider) ORDER BY requested_at DESC, id DESC
            """)
        let day = try #require(days.isEmpty ? nil : days[days.count / 2])
        let expected = try environment.query(
            """
            SELECT id FROM trips WHERE rider_id = \(environment.rider) AND status = 'completed'
            AND requested_at >= ('\(day)'::timestamp AT TIME ZONE 'Europe/Paris')
            ORDER BY requested_at DESC, id DESC
            """)
        let filter = TripFilter(
            from: DateBound.day(day), status: .completed, timeZone: "Europe/Paris", pageSize: 7)
        var ids: [String] = []
        for try await trip in client.trips(rider: environment.rider, filter: filter) { ids.append(trip.id) }
        #expect(!expected.isEmpty)
        #expect(ids == expected)
    }

    @Test func aTripRecordedThroughTheAPIAppearsAfterRefresh() async throws {
        let environment = try IntegrationEnvironment.required()
        let client = environment.client(token: environment.riderToken)
        let model = await TripListViewModel(client: client, rider: environment.rider, filter: TripFilter(pageSize: 5))
        await model.load()
        guard case .loaded(let before, _) = await model.state else {
            Issue.record("expected trips, got \(await model.state)")
            return
        }
        // Nothing changed yet: the kept first page is confirmed by a real 304.
        #expect(try await client.firstPage(rider: environment.rider, filter: TripFilter(pageSize: 5)).changed == false)

        // Newer than every trip of the rider, so it lands on top of the first page.
        let requested = Date(timeIntervalSince1970: try environment.newestRequestTime() + 3600)
        let recorded = try await environment.recordTrip(requestedAt: requested)

        await model.refresh()
        guard case .loaded(let after, _) = await model.state else {
            Issue.record("expected trips, got \(await model.state)")
            return
        }
        #expect(after.first?.id == recorded.id)
        // The list shows the trip exactly as the POST answered it, display strings included, as a list row:
        // without the detail form's members.
        var row = recorded
        row.adjustments = nil
        #expect(after.first == row)
        #expect(await model.lastRefresh?.tripsTransferred == 1)
        #expect(recorded.display.title.contains("Place Charles de Gaulle"))
        #expect(Array(after.dropFirst()) == Array(before.prefix(after.count - 1)))
    }

    /// A tip on a trip of the first page: the refresh asks the changes feed and gets that trip alone, in its
    /// new version, in place; the detail shows the receipt with the tip.
    @Test func afterOneTipARefreshTransfersOneTrip() async throws {
        let environment = try IntegrationEnvironment.required()
        let client = environment.client(token: environment.riderToken)
        let filter = TripFilter(pageSize: 10)

        // Tips are taken for 30 days after the ride, and the seeded trips are older: record one that ended an
        // hour ago and is newer than every trip of the rider, so it is on the first page.
        let requested = Date(
            timeIntervalSince1970: max(try environment.newestRequestTime() + 3600, Date().timeIntervalSince1970 - 7200))
        let breakdown: [Components.Schemas.NewFareLine] = [
            .init(kind: .base, amountMinor: 350), .init(kind: .distance, amountMinor: 1000),
            .init(kind: .time, amountMinor: 600), .init(kind: .promotion, amountMinor: -100),
        ]
        let recorded = try await environment.recordTrip(requestedAt: requested, breakdown: breakdown)

        let model = await TripListViewModel(client: client, rider: environment.rider, filter: filter)
        await model.load()
        guard case .loaded(let before, canLoadMore: true) = await model.state else {
            Issue.record("expected a first page with more behind it, got \(await model.state)")
            return
        }
        let shownBefore = try #require(before.first { $0.id == recorded.id })
        #expect(shownBefore.version == 1)

        let service = environment.client(token: environment.serviceToken)
        let tipped = try await service.api.recordAdjustment(
            path: .init(riderId: environment.rider, tripId: recorded.id),
            headers: .init(idempotencyKey: "client-tip-\(UUID().uuidString)"),
            body: .json(.init(kind: .tip, amountMinor: 250, reason: "In-app tip"))
        ).created.body.json
        #expect(tipped.version == 2)

        await model.refresh()
        let report = try #require(await model.lastRefresh)
        #expect(report == TripListRefreshReport(source: .changes, requests: 1, tripsTransferred: 1, replaced: 1))
        guard case .loaded(let after, canLoadMore: true) = await model.state else {
            Issue.record("expected trips, got \(await model.state)")
            return
        }
        #expect(after.map(\.id) == before.map(\.id))
        let shown = try #require(after.first { $0.id == recorded.id })
        #expect(shown.version == 2)
        #expect(shown.fare.tipsMinor == 250)
        #expect(shown.fare.totalMinor == 2100)
        #expect(shown.display.fare != shownBefore.display.fare)
        // The list now shows exactly the first page the service serves: the one trip changed, in place.
        #expect(after == (try await client.page(rider: environment.rider, filter: filter)).trips)

        // Nothing new since: nothing transferred.
        await model.refresh()
        #expect(await model.lastRefresh?.tripsTransferred == 0)

        let detail = await TripDetailViewModel(client: client, rider: environment.rider, tripID: recorded.id)
        await detail.load()
        let receipt = try #require(await detail.receipt)
        #expect(receipt.lines == breakdown.map { TripReceipt.Line(kind: .known($0.kind), amountMinor: $0.amountMinor) })
        #expect(receipt.chargedMinor == 1850)
        #expect(receipt.tipsMinor == 250)
        #expect(receipt.refundsMinor == 0)
        #expect(receipt.correctionsMinor == 0)
        #expect(receipt.totalMinor == 2100)
        #expect(receipt.total == shown.display.fare)
        #expect(receipt.adjustments.map(\.kind) == [.known(.tip)])
        #expect(receipt.adjustments.map(\.reason) == ["In-app tip"])
    }

    @Test func anotherRidersIdFailsExactlyLikeAMissingOne() async throws {
        let environment = try IntegrationEnvironment.required()
        let client = environment.client(token: environment.riderToken)
        let missingRider = "8999999999"
        let otherTrip = try #require(
            try environment.query("SELECT id FROM trips WHERE rider_id = \(environment.otherRider) LIMIT 1").first)
        let missingTrip = try #require(try environment.query("SELECT max(id) + 1000 FROM trips").first)

        let other = await #expect(throws: TripHistoryError.self) {
            _ = try await client.page(rider: environment.otherRider)
        }
        let missing = await #expect(throws: TripHistoryError.self) { _ = try await client.page(rider: missingRider) }
        let otherDetail = await #expect(throws: TripHistoryError.self) {
            _ = try await client.trip(rider: environment.otherRider, id: otherTrip)
        }
        let missingDetail = await #expect(throws: TripHistoryError.self) {
            _ = try await client.trip(rider: environment.rider, id: missingTrip)
        }
        for error in [other, missing, otherDetail, missingDetail] {
            #expect(error?.isNotFound == true)
            #expect(error?.code == "not_found")
            #expect(error?.isRecoverable == false)
        }
        // Everything but the request id is the same, so ids cannot be probed.
        var sameOther = other
        sameOther?.requestID = missing?.requestID
        #expect(sameOther == missing)
        var sameOtherDetail = otherDetail
        sameOtherDetail?.requestID = missingDetail?.requestID
        #expect(sameOtherDetail == missingDetail)
    }

    @Test func anExpiredTokenIsAnUnrecoverableFailure() async throws {
        let environment = try IntegrationEnvironment.required()
        let model = await TripListViewModel(
            client: environment.client(token: environment.expiredToken), rider: environment.rider)
        await model.load()
        guard case .failed(let error, let canRetry) = await model.state else {
            Issue.record("expected a failure, got \(await model.state)")
            return
        }
        #expect(error.isUnauthorized)
        #expect(error.code == "unauthorized")
        #expect(error.isRecoverable == false)
        #expect(canRetry == false)
    }
}
