import Foundation
import Testing
import TripHistoryClient

@testable import TripHistoryListModel

/// Pull-to-refresh through the changes feed: what it asks, what it transfers and how it changes the list.
@MainActor
@Suite struct TripListRefreshTests {
    private func trips(_ state: TripListState) -> [Trip]? {
        guard case .loaded(let trips, _) = state else { return nil }
        return trips
    }

    private func ids(_ state: TripListState) -> [String]? {
        trips(state)?.map(\.id)
    }

    /// Trip `id` requested at 08:00 UTC on March `day`, 2026.
    private func trip(
        _ id: Int, day: Int, version: Int = 1, tipMinor: Int = 0, status: String = "completed"
    )
        -> String
    {
        Fixtures.tripJSON(
            id, version: version, tipMinor: tipMinor, requestedAt: "2026-03-\(day < 10 ? "0" : "")\(day)T08:00:00Z",
            status: status)
    }

    /// A model showing trips 5, 4 and 3 (March 5, 4 and 3) with older ones behind cursor `c1`, current to
    /// feed token `t0`.
    private func loadedModel(
        _ transport: ScriptedTransport, filter: TripFilter = TripFilter()
    ) async
        -> TripListViewModel
    {
        await transport.append(.reply(.feedStart("t0")))
        await transport.append(
            .reply(.page(trips: [trip(5, day: 5), trip(4, day: 4), trip(3, day: 3)], next: "c1")))
        let model = TripListViewModel(client: Fixtures.client(transport, maxAttempts: 1), rider: "1", filter: filter)
        await model.load()
        return model
    }

    @Test func anUpsertReplacesTheTripInPlaceAndOnlyItIsTransferred() async throws {
        let transport = ScriptedTransport()
        let model = await loadedModel(transport)
        let before = try #require(trips(model.state))
        await transport.append(
            .reply(.changes([Fixtures.upsert(trip(4, day: 4, version: 2, tipMinor: 300))], next: "t1")))
        await model.refresh()

        let after = try #require(trips(model.state))
        #expect(after.map(\.id) == ["5", "4", "3"])
        #expect(after[1].version == 2)
        #expect(after[1].fare.totalMinor == 2150)
        #expect(after[1].display.fare == "€21.50")
        #expect(after[0] == before[0])
        #expect(after[2] == before[2])
        #expect(
            model.lastRefresh
                == TripListRefreshReport(source: .changes, requests: 1, tripsTransferred: 1, replaced: 1))
        let requests = await transport.requests
        #expect(requests.count == 3)
        #expect(requests[2].path?.hasPrefix("/v1/riders/1/trips/changes?") == true)
        #expect(await transport.query(of: 2)["since"] == "t0")
        // The start answer's tag belongs to no token: the first refresh sends none.
        #expect(requests[2].headerFields[.ifNoneMatch] == nil)

        // Paging on goes from where it was.
        await transport.append(.reply(.page(trips: [trip(2, day: 2)])))
        await model.loadMore()
        #expect(ids(model.state) == ["5", "4", "3", "2"])
        #expect(await transport.query(of: 3)["cursor"] == "c1")
    }

    @Test func anUpsertNoNewerThanTheHeldTripIsIgnored() async throws {
        let transport = ScriptedTransport()
        let model = await loadedModel(transport)
        let before = model.state
        await transport.append(.reply(.changes([Fixtures.upsert(trip(4, day: 4, tipMinor: 300))], next: "t1")))
        await model.refresh()

        #expect(model.state == before)
        #expect(model.lastRefresh == TripListRefreshReport(source: .changes, requests: 1, tripsTransferred: 1))
    }

    @Test func anErasedTripIsDropped() async throws {
        let transport = ScriptedTransport()
        let model = await loadedModel(transport)
        await transport.append(.reply(.changes([Fixtures.erased(4), Fixtures.erased(99)], next: "t1")))
        await model.refresh()

        #expect(ids(model.state) == ["5", "3"])
        #expect(
            model.lastRefresh
                == TripListRefreshReport(
                    source: .changes, requests: 1, tripsTransferred: 0, erasedTransferred: 2, removed: 1))
    }

    @Test func erasingTheLastTripShowsEmpty() async throws {
        let transport = ScriptedTransport([.reply(.feedStart()), .reply(.page([7]))])
        let model = TripListViewModel(client: Fixtures.client(transport), rider: "1")
        await model.load()
        await transport.append(.reply(.changes([Fixtures.erased(7)], next: "t1")))
        await model.refresh()
        #expect(model.state == .empty)
    }

    @Test func aNewTripGoesInItsPlaceWithinTheLoadedPagesOnly() async throws {
        let transport = ScriptedTransport()
        let model = await loadedModel(transport)
        await transport.append(
            .reply(
                .changes(
                    [
                        Fixtures.upsert(trip(8, day: 8)),
                        // Same request day as trip 4, a larger id: newer in the list's order.
                        Fixtures.upsert(trip(7, day: 4)), Fixtures.upsert(trip(2, day: 2)),
                    ], next: "t1")))
        await model.refresh()

        // Trip 2 is older than the loaded pages: the next page serves it.
        #expect(ids(model.state) == ["8", "5", "7", "4", "3"])
        #expect(
            model.lastRefresh
                == TripListRefreshReport(source: .changes, requests: 1, tripsTransferred: 3, inserted: 2))
    }

    @Test func aNewOlderTripIsAppendedWhenNoOlderPageRemains() async throws {
        let transport = ScriptedTransport([
            .reply(.feedStart()), .reply(.page(trips: [trip(5, day: 5), trip(4, day: 4)])),
        ])
        let model = TripListViewModel(client: Fixtures.client(transport), rider: "1")
        await model.load()
        await transport.append(.reply(.changes([Fixtures.upsert(trip(2, day: 2))], next: "t1")))
        await model.refresh()
        #expect(ids(model.state) == ["5", "4", "2"])
    }

    @Test func aNewTripShowsAnEmptyList() async throws {
        let transport = ScriptedTransport([.reply(.feedStart()), .reply(.page([]))])
        let model = TripListViewModel(client: Fixtures.client(transport), rider: "1")
        await model.load()
        #expect(model.state == .empty)
        await transport.append(.reply(.changes([Fixtures.upsert(trip(1, day: 1))], next: "t1")))
        await model.refresh()
        #expect(ids(model.state) == ["1"])
    }

    @Test func a304ChangesNothingAndTheNextRefreshSendsTheLastTag() async throws {
        let transport = ScriptedTransport()
        let model = await loadedModel(transport)
        let etag = "\"feed-etag-000000000001\""
        await transport.append(.reply(.changes([], next: "t1", etag: etag)))
        await transport.append(.reply(.notModified(etag: etag)))
        await model.refresh()
        let before = model.state
        await model.refresh()

        #expect(model.state == before)
        #expect(ids(model.state) == ["5", "4", "3"])
        #expect(model.lastRefresh == TripListRefreshReport(source: .changes, requests: 1, tripsTransferred: 0))
        #expect(await transport.query(of: 3)["since"] == "t1")
        #expect(await transport.requests[3].headerFields[.ifNoneMatch] == etag)

        // After a 304 the same token and tag go again.
        await transport.append(.reply(.notModified(etag: etag)))
        await model.refresh()
        #expect(await transport.query(of: 4)["since"] == "t1")
        #expect(await transport.requests[4].headerFields[.ifNoneMatch] == etag)
    }

    @Test func aRefreshFollowsHasMoreAndKeepsTheLastToken() async throws {
        let transport = ScriptedTransport()
        let model = await loadedModel(transport)
        await transport.append(
            .reply(.changes([Fixtures.upsert(trip(5, day: 5, version: 2, tipMinor: 100))], next: "t1", hasMore: true)))
        await transport.append(.reply(.changes([Fixtures.erased(3)], next: "t2", etag: "\"feed-etag-000000000002\"")))
        await model.refresh()

        #expect(ids(model.state) == ["5", "4"])
        #expect(trips(model.state)?.first?.version == 2)
        #expect(model.lastRefresh?.requests == 2)
        #expect(model.lastRefresh?.tripsTransferred == 1)
        #expect(model.lastRefresh?.erasedTransferred == 1)
        #expect(await transport.query(of: 3)["since"] == "t1")

        await transport.append(.reply(.notModified(etag: "\"feed-etag-000000000002\"")))
        await model.refresh()
        #expect(await transport.query(of: 4)["since"] == "t2")
        #expect(await transport.requests[4].headerFields[.ifNoneMatch] == "\"feed-etag-000000000002\"")
    }

    @Test(arguments: [(410, "sync_token_expired"), (400, "cursor_mismatch"), (400, "invalid_cursor")])
    func aRefusedTokenReloadsTheFirstPageAndTakesANewToken(status: Int, code: String) async throws {
        let transport = ScriptedTransport()
        let model = await loadedModel(transport)
        await transport.append(.reply(.page(trips: [trip(2, day: 2)])))
        await model.loadMore()
        #expect(ids(model.state) == ["5", "4", "3", "2"])

        await transport.append(.reply(.problem(status, code: code, retryable: false, param: "since")))
        await transport.append(.reply(.feedStart("t9")))
        await transport.append(.reply(.page(trips: [trip(6, day: 6), trip(5, day: 5)], next: "c9")))
        await model.refresh()

        // The list starts over from the first page; the older pages loaded before are gone.
        #expect(ids(model.state) == ["6", "5"])
        guard case .loaded(_, canLoadMore: true) = model.state else {
            Issue.record("expected more to load, got \(model.state)")
            return
        }
        #expect(model.lastRefresh == TripListRefreshReport(source: .firstPage, requests: 3, tripsTransferred: 2))
        #expect(await transport.query(of: 3)["since"] == "t0")
        #expect(await transport.query(of: 4)["since"] == nil)
        #expect(await transport.query(of: 5)["cursor"] == nil)

        // The next refresh goes on from the new token.
        await transport.append(.reply(.changes([], next: "t10")))
        await model.refresh()
        #expect(await transport.query(of: 6)["since"] == "t9")
        #expect(model.lastRefresh?.source == .changes)
    }

    @Test func aFailedRefreshKeepsTheTripsAndItsRetryAsksFromTheSameToken() async throws {
        let transport = ScriptedTransport()
        let model = await loadedModel(transport)
        await transport.append(.reply(.problem(503, code: "unavailable", retryable: true)))
        await model.refresh()
        guard case .failed(let error, canRetry: true) = model.state else {
            Issue.record("expected a retryable failure, got \(model.state)")
            return
        }
        #expect(error.code == "unavailable")

        await transport.append(.reply(.changes([Fixtures.erased(5)], next: "t1")))
        await model.retry()
        #expect(ids(model.state) == ["4", "3"])
        #expect(await transport.query(of: 3)["since"] == "t0")
    }

    @Test func withAStatusFilterOnlyMatchingTripsAreTaken() async throws {
        let transport = ScriptedTransport()
        let model = await loadedModel(transport, filter: TripFilter(status: .completed))
        await transport.append(
            .reply(
                .changes(
                    [Fixtures.upsert(trip(7, day: 7, status: "canceled")), Fixtures.upsert(trip(6, day: 6))],
                    next: "t1")))
        await model.refresh()
        #expect(ids(model.state) == ["6", "5", "4", "3"])
        #expect(model.lastRefresh?.inserted == 1)
    }

    @Test func withADateRangeOnlyTripsWithinItAreTaken() async throws {
        let transport = ScriptedTransport([
            .reply(.feedStart()),
            .reply(
                .page(
                    trips: [trip(5, day: 5), trip(3, day: 3)], from: "2026-03-02T00:00:00Z",
                    to: "2026-03-06T00:00:00Z")),
        ])
        let filter = TripFilter(from: DateBound("2026-03-02"), to: DateBound("2026-03-06"))
        let model = TripListViewModel(client: Fixtures.client(transport), rider: "1", filter: filter)
        await model.load()
        await transport.append(
            .reply(
                .changes(
                    [
                        Fixtures.upsert(trip(7, day: 7)), Fixtures.upsert(trip(1, day: 1)),
                        Fixtures.upsert(trip(4, day: 4)), Fixtures.upsert(trip(5, day: 5, version: 2, tipMinor: 50)),
                    ], next: "t1")))
        await model.refresh()

        #expect(ids(model.state) == ["5", "4", "3"])
        #expect(trips(model.state)?.first?.version == 2)
        #expect(model.lastRefresh?.inserted == 1)
        #expect(model.lastRefresh?.replaced == 1)
    }

    @Test func withAnotherZoneHeldTripsKeepTheirDateAndNewOnesGetItFromTheirDetail() async throws {
        let transport = ScriptedTransport([
            .reply(.feedStart()),
            .reply(.page(trips: [Fixtures.tripJSON(5, requestedAt: "2026-03-05T08:00:00Z", time: "5:00 PM")])),
        ])
        let model = TripListViewModel(
            client: Fixtures.client(transport), rider: "1", filter: TripFilter(timeZone: "Asia/Tokyo"))
        await model.load()
        // The feed writes Paris times; the list shows Tokyo's.
        await transport.append(
            .reply(
                .changes(
                    [
                        Fixtures.upsert(
                            Fixtures.tripJSON(5, version: 2, tipMinor: 100, requestedAt: "2026-03-05T08:00:00Z")),
                        Fixtures.upsert(Fixtures.tripJSON(6, requestedAt: "2026-03-06T08:30:00Z")),
                    ], next: "t1")))
        await transport.append(
            .reply(
                .init(
                    status: 200, headers: Fixtures.okHeaders(etag: "\"v1.detail\""),
                    body: Fixtures.tripJSON(6, requestedAt: "2026-03-06T08:30:00Z", time: "5:30 PM"))))
        await model.refresh()

        let shown = try #require(trips(model.state))
        #expect(shown.map(\.id) == ["6", "5"])
        #expect(shown.map(\.display.time) == ["5:30 PM", "5:00 PM"])
        #expect(shown[1].display.fare == "€19.50")
        #expect(await transport.requests[3].path == "/v1/riders/1/trips/6?tz=Asia%2FTokyo")
        #expect(model.lastRefresh?.requests == 2)
        #expect(model.lastRefresh?.tripsTransferred == 2)
    }

    @Test func aFilterChangeTakesANewToken() async throws {
        let transport = ScriptedTransport()
        let model = await loadedModel(transport)
        await transport.append(.reply(.feedStart("t5")))
        await transport.append(.reply(.page([3])))
        await model.setStatus(.canceled)
        #expect(model.lastRefresh == nil)
        await transport.append(.reply(.changes([], next: "t6")))
        await model.refresh()
        #expect(await transport.query(of: 4)["since"] == "t5")
    }
}
