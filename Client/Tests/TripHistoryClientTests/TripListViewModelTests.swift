import Foundation
import Testing
import TripHistoryClient

@testable import TripHistoryListModel

@MainActor
@Suite struct TripListViewModelTests {
    private func ids(_ state: TripListState) -> [String]? {
        guard case .loaded(let trips, _) = state else { return nil }
        return trips.map(\.id)
    }

    private func canLoadMore(_ state: TripListState) -> Bool? {
        guard case .loaded(_, let canLoadMore) = state else { return nil }
        return canLoadMore
    }

    @Test func loadGoesFromIdleThroughLoadingToLoaded() async throws {
        let gate = Gate()
        let transport = ScriptedTransport([.reply(.feedStart()), .held(gate, .page([3, 2], next: "c1"))])
        let model = TripListViewModel(client: Fixtures.client(transport), rider: "1")
        #expect(model.state == .idle)

        let loading = Task { await model.load() }
        await transport.waitForRequests(2)
        #expect(model.state == .loading)
        await gate.open()
        await loading.value

        #expect(ids(model.state) == ["3", "2"])
        #expect(canLoadMore(model.state) == true)
        if case .loaded(let trips, _) = model.state {
            #expect(trips.first?.display.title == "Trip to Place Charles de Gaulle 3")
        }
        // The feed's token for now comes first, then the page.
        let requests = await transport.requests
        #expect(requests[0].path == "/v1/riders/1/trips/changes")
        #expect(requests[1].path == "/v1/riders/1/trips")
    }

    @Test func loadWhileLoadedDoesNothing() async throws {
        let transport = ScriptedTransport([.reply(.feedStart()), .reply(.page([1]))])
        let model = TripListViewModel(client: Fixtures.client(transport), rider: "1")
        await model.load()
        await model.load()
        #expect(await transport.requests.count == 2)
    }

    @Test func noTripsIsEmpty() async throws {
        let transport = ScriptedTransport([.reply(.feedStart()), .reply(.page([]))])
        let model = TripListViewModel(client: Fixtures.client(transport), rider: "1")
        await model.load()
        #expect(model.state == .empty)
    }

    @Test func loadMoreAppendsUntilTheEndThenDoesNothing() async throws {
        let transport = ScriptedTransport([
            .reply(.feedStart()), .reply(.page([5, 4], next: "c1")), .reply(.page([3, 2], next: "c2", prev: "p1")),
            .reply(.page([1], prev: "p2")),
        ])
        let model = TripListViewModel(client: Fixtures.client(transport), rider: "1")
        await model.load()
        await model.loadMore()
        #expect(ids(model.state) == ["5", "4", "3", "2"])
        #expect(canLoadMore(model.state) == true)
        await model.loadMore()
        #expect(ids(model.state) == ["5", "4", "3", "2", "1"])
        #expect(canLoadMore(model.state) == false)

        await model.loadMore()
        #expect(await transport.requests.count == 4)
        #expect(await transport.query(of: 2)["cursor"] == "c1")
        #expect(await transport.query(of: 3)["cursor"] == "c2")
    }

    @Test func aSecondLoadMoreWhileOneIsLoadingDoesNothing() async throws {
        let gate = Gate()
        let transport = ScriptedTransport([
            .reply(.feedStart()), .reply(.page([5, 4], next: "c1")), .held(gate, .page([3], prev: "p1")),
        ])
        let model = TripListViewModel(client: Fixtures.client(transport), rider: "1")
        await model.load()
        let first = Task { await model.loadMore() }
        await transport.waitForRequests(3)
        #expect(model.isLoadingMore)
        #expect(ids(model.state) == ["5", "4"])
        await model.loadMore()
        await gate.open()
        await first.value

        #expect(await transport.requests.count == 3)
        #expect(ids(model.state) == ["5", "4", "3"])
        #expect(model.isLoadingMore == false)
    }

    /// A service without the changes feed (`404`): the list loads, and a refresh revalidates the first page.
    @Test func withoutTheFeedARefreshWith304KeepsEverythingShown() async throws {
        let etag = "\"first-etag-00000000000\""
        let transport = ScriptedTransport([
            .reply(.problem(404, code: "not_found", retryable: false)), .reply(.page([5, 4], next: "c1", etag: etag)),
            .reply(.page([3], prev: "p1")), .reply(.problem(404, code: "not_found", retryable: false)),
            .reply(.notModified(etag: etag)),
        ])
        let model = TripListViewModel(client: Fixtures.client(transport), rider: "1")
        await model.load()
        await model.loadMore()
        let before = model.state
        await model.refresh()

        #expect(model.state == before)
        #expect(ids(model.state) == ["5", "4", "3"])
        #expect(await transport.requests[4].headerFields[.ifNoneMatch] == etag)
        #expect(await transport.query(of: 4)["cursor"] == nil)
        #expect(model.lastRefresh == TripListRefreshReport(source: .firstPage, requests: 2, tripsTransferred: 0))
    }

    @Test func withoutTheFeedARefreshWithANewFirstTripStartsTheListOver() async throws {
        let transport = ScriptedTransport([
            .reply(.problem(404, code: "not_found", retryable: false)),
            .reply(.page([5, 4], next: "c1", etag: "\"first-etag-00000000000\"")), .reply(.page([3], prev: "p1")),
            .reply(.problem(404, code: "not_found", retryable: false)),
            .reply(.page([6, 5], next: "c9", etag: "\"newer-etag-00000000000\"")),
        ])
        let model = TripListViewModel(client: Fixtures.client(transport), rider: "1")
        await model.load()
        await model.loadMore()
        await model.refresh()

        #expect(ids(model.state) == ["6", "5"])
        #expect(canLoadMore(model.state) == true)
    }

    @Test func aFilterChangeWhileAPageIsInFlightDropsTheStalePage() async throws {
        let gate = Gate()
        let transport = ScriptedTransport([
            .reply(.feedStart()), .held(gate, .page([9, 8])), .reply(.feedStart("t1")), .reply(.page([2])),
        ])
        let model = TripListViewModel(client: Fixtures.client(transport), rider: "1")
        let stale = Task { await model.load() }
        await transport.waitForRequests(2)

        await model.setStatus(.canceled)
        #expect(ids(model.state) == ["2"])
        #expect(model.filter.status == .canceled)
        await gate.open()
        await stale.value

        #expect(ids(model.state) == ["2"])
        #expect(await transport.query(of: 1)["status"] == nil)
        #expect(await transport.query(of: 3)["status"] == "canceled")
    }

    @Test func aDateRangeChangeRestartsPagingWithTheNewRange() async throws {
        let transport = ScriptedTransport([
            .reply(.feedStart()), .reply(.page([5, 4], next: "c1")), .reply(.page([3, 2], next: "c2")),
            .reply(.feedStart("t1")), .reply(.page([1])),
        ])
        let model = TripListViewModel(client: Fixtures.client(transport), rider: "1")
        await model.load()
        await model.loadMore()
        await model.setDateRange(TripDateRange(from: DateBound("2026-01-01"), to: DateBound("2026-02-01")))

        #expect(ids(model.state) == ["1"])
        #expect(await transport.query(of: 4)["cursor"] == nil)
        #expect(await transport.query(of: 4)["from"] == "2026-01-01")
        #expect(await transport.query(of: 4)["to"] == "2026-02-01")
    }

    @Test func refreshWhileAnOlderPageIsLoadingDropsThatPage() async throws {
        let gate = Gate()
        let transport = ScriptedTransport([
            .reply(.feedStart()), .reply(.page([5, 4], next: "c1")), .held(gate, .page([3], prev: "p1")),
            .reply(.changes([Fixtures.upsert(Fixtures.tripJSON(6))], next: "t1")),
        ])
        let model = TripListViewModel(client: Fixtures.client(transport), rider: "1")
        await model.load()
        let loadingMore = Task { await model.loadMore() }
        await transport.waitForRequests(3)
        await model.refresh()
        await gate.open()
        await loadingMore.value

        #expect(ids(model.state) == ["6", "5", "4"])
        #expect(canLoadMore(model.state) == true)
        #expect(model.isLoadingMore == false)
    }

    @Test func anUnrecoverableErrorFailsWithoutRetry() async throws {
        let transport = ScriptedTransport([
            .reply(.problem(404, code: "not_found", retryable: false)),
            .reply(.problem(404, code: "not_found", retryable: false)),
        ])
        let model = TripListViewModel(client: Fixtures.client(transport), rider: "2")
        await model.load()
        guard case .failed(let error, let canRetry) = model.state else {
            Issue.record("expected failed, got \(model.state)")
            return
        }
        #expect(error.isNotFound)
        #expect(canRetry == false)
        #expect(await transport.requests.count == 2)
    }

    @Test func aRecoverableErrorFailsRetryablyAndRetryLoads() async throws {
        let sleeps = SleepRecorder()
        let transport = ScriptedTransport([
            .reply(.feedStart()), .reply(.problem(503, code: "unavailable", retryable: true, retryAfter: 3)),
            .reply(.problem(503, code: "unavailable", retryable: true, retryAfter: 4)),
        ])
        let model = TripListViewModel(
            client: Fixtures.client(transport, sleeps: sleeps, maxAttempts: 2), rider: "1")
        await model.load()
        guard case .failed(let error, let canRetry) = model.state else {
            Issue.record("expected failed, got \(model.state)")
            return
        }
        #expect(error.code == "unavailable")
        #expect(canRetry)
        #expect(await sleeps.delays == [3])

        await transport.append(.reply(.feedStart("t1")))
        await transport.append(.reply(.page([1])))
        await model.retry()
        #expect(ids(model.state) == ["1"])
    }

    @Test func aFailedLoadMoreKeepsTheTripsForTheRetry() async throws {
        let transport = ScriptedTransport([
            .reply(.feedStart()), .reply(.page([5, 4], next: "c1")), .failure(.notConnectedToInternet),
            .reply(.page([3], prev: "p1")),
        ])
        let model = TripListViewModel(client: Fixtures.client(transport, maxAttempts: 1), rider: "1")
        await model.load()
        await model.loadMore()
        guard case .failed(let error, canRetry: true) = model.state else {
            Issue.record("expected a retryable failure, got \(model.state)")
            return
        }
        #expect(error.kind == .transport)

        await model.retry()
        #expect(ids(model.state) == ["5", "4", "3"])
        #expect(await transport.query(of: 3)["cursor"] == "c1")
    }

    @Test func retryWithoutAFailureDoesNothing() async throws {
        let transport = ScriptedTransport([.reply(.feedStart()), .reply(.page([1]))])
        let model = TripListViewModel(client: Fixtures.client(transport), rider: "1")
        await model.retry()
        #expect(model.state == .idle)
        await model.load()
        await model.retry()
        #expect(await transport.requests.count == 2)
    }

    @Test func cancelWhileLoadingReturnsToIdleAndDropsTheAnswer() async throws {
        let gate = Gate()
        let transport = ScriptedTransport([.reply(.feedStart()), .held(gate, .page([1]))])
        let model = TripListViewModel(client: Fixtures.client(transport), rider: "1")
        let loading = Task { await model.load() }
        await transport.waitForRequests(2)
        model.cancel()
        #expect(model.state == .idle)
        await gate.open()
        await loading.value
        #expect(model.state == .idle)
    }

    @Test func theDetailLoaderShowsOneTripOrNotFound() async throws {
        let transport = ScriptedTransport([
            .reply(.init(status: 200, headers: Fixtures.okHeaders(etag: "\"e\""), body: Fixtures.tripJSON(42))),
            .reply(.problem(404, code: "not_found", retryable: false)),
        ])
        let client = Fixtures.client(transport)
        let found = TripDetailViewModel(client: client, rider: "1", tripID: "42", timeZone: "Asia/Tokyo")
        await found.load()
        guard case .loaded(let trip) = found.state else {
            Issue.record("expected loaded, got \(found.state)")
            return
        }
        #expect(trip.id == "42")
        #expect(await transport.requests[0].path == "/v1/riders/1/trips/42?tz=Asia%2FTokyo")

        let missing = TripDetailViewModel(client: client, rider: "1", tripID: "43")
        await missing.load()
        guard case .failed(let error, canRetry: false) = missing.state else {
            Issue.record("expected failed, got \(missing.state)")
            return
        }
        #expect(error.isNotFound)
    }

    /// A trip's detail form: a breakdown with a kind this version does not know, a tip, a refund and a fare
    /// correction.
    static let detailJSON = Fixtures.tripJSON(42, version: 4)
        .replacingOccurrences(
            of: #""total_minor":1850,"tips_minor":0,"refunds_minor":0}"#,
            with: """
                "total_minor":2000,"tips_minor":300,"refunds_minor":-200,"breakdown":[\
                {"kind":"base","amount_minor":300},{"kind":"distance","amount_minor":900},\
                {"kind":"time","amount_minor":500},{"kind":"airport_fee","amount_minor":250},\
                {"kind":"promotion","amount_minor":-100}]}
                """
        )
        .replacingOccurrences(of: #""fare":"€18.50""#, with: #""fare":"€20.00""#)
        .replacingOccurrences(
            of: #""status":"Completed"}}"#,
            with: """
                "status":"Completed"},"payment":{"method":"card","brand":"Visa","last4":"4242"},"adjustments":[\
                {"id":"9001","kind":"tip","amount_minor":300,"reason":"In-app tip","created_at":"2026-03-01T10:00:00Z"},\
                {"id":"9002","kind":"refund","amount_minor":-200,"reason":"Detour","created_at":"2026-03-02T10:00:00Z"},\
                {"id":"9003","kind":"fare_correction","amount_minor":50,"reason":"Toll","created_at":"2026-03-03T10:00:00Z"}]}
                """)

    @Test func theDetailShowsTheReceiptsBreakdown() async throws {
        let transport = ScriptedTransport([
            .reply(.init(status: 200, headers: Fixtures.okHeaders(etag: "\"v4.e\""), body: Self.detailJSON))
        ])
        let model = TripDetailViewModel(client: Fixtures.client(transport), rider: "1", tripID: "42")
        #expect(model.receipt == nil)
        await model.load()

        let receipt = try #require(model.receipt)
        #expect(receipt.currency == "EUR")
        #expect(
            receipt.lines.map(\.kind) == [
                .known(.base), .known(.distance), .known(.time), .unknown("airport_fee"), .known(.promotion),
            ])
        #expect(receipt.lines.map(\.amountMinor) == [300, 900, 500, 250, -100])
        #expect(receipt.lines.map(\.amountMinor).reduce(0, +) == receipt.chargedMinor)
        #expect(receipt.chargedMinor == 1850)
        #expect(receipt.tipsMinor == 300)
        #expect(receipt.refundsMinor == -200)
        #expect(receipt.correctionsMinor == 50)
        #expect(receipt.totalMinor == 2000)
        #expect(receipt.total == "€20.00")
        #expect(receipt.adjustments.map(\.kind) == [.known(.tip), .known(.refund), .known(.fareCorrection)])
        #expect(receipt.adjustments.map(\.reason) == ["In-app tip", "Detour", "Toll"])
        #expect(receipt.adjustments.first?.createdAt == Date(timeIntervalSince1970: 1_772_359_200))
    }

    @Test func aTripWithoutBreakdownHasAReceiptOfTotalsOnly() async throws {
        let transport = ScriptedTransport([
            .reply(.init(status: 200, headers: Fixtures.okHeaders(etag: "\"v1.e\""), body: Fixtures.tripJSON(7)))
        ])
        let model = TripDetailViewModel(client: Fixtures.client(transport), rider: "1", tripID: "7")
        await model.load()
        let receipt = try #require(model.receipt)
        #expect(receipt.lines.isEmpty)
        #expect(receipt.adjustments.isEmpty)
        #expect(receipt.totalMinor == 1850)
        #expect(receipt.correctionsMinor == 0)
        #expect(receipt.total == "€18.50")
    }
}
