import Foundation
import Testing

@testable import TripHistoryClient

@Suite struct PagerTests {
    @Test func tripsFollowNextCursorToTheEndWithTheFilterOnEveryRequest() async throws {
        let transport = ScriptedTransport([
            .reply(.page([9, 8], next: "c1")), .reply(.page([7, 6], next: "c2", prev: "p1")),
            .reply(.page([5], prev: "p2")),
        ])
        let client = Fixtures.client(transport, language: "fr-CH, fr;q=0.9, en;q=0.5")
        let filter = TripFilter(
            from: DateBound("2026-01-01"), to: DateBound("2026-02-01T00:00:00+01:00"), status: .completed,
            timeZone: "Europe/Paris", pageSize: 2)
        var ids: [String] = []
        for try await trip in client.trips(rider: "1", filter: filter) { ids.append(trip.id) }

        #expect(ids == ["9", "8", "7", "6", "5"])
        let requests = await transport.requests
        #expect(requests.count == 3)
        #expect(requests.map(\.path).allSatisfy { $0?.hasPrefix("/v1/riders/1/trips?") == true })
        #expect(await transport.query(of: 0)["cursor"] == nil)
        #expect(await transport.query(of: 1)["cursor"] == "c1")
        #expect(await transport.query(of: 2)["cursor"] == "c2")
        for index in 0..<3 {
            let query = await transport.query(of: index)
            #expect(query["from"] == "2026-01-01")
            #expect(query["to"] == "2026-02-01T00:00:00+01:00")
            #expect(query["status"] == "completed")
            #expect(query["tz"] == "Europe/Paris")
            #expect(query["limit"] == "2")
            #expect(requests[index].headerFields[.authorization] == "Bearer token-for-tests")
            #expect(requests[index].headerFields[.acceptLanguage] == "fr-CH, fr;q=0.9, en;q=0.5")
        }
    }

    @Test func tripsDecodeTheServersTimestampsAndDisplayStrings() async throws {
        let transport = ScriptedTransport([.reply(.page([3]))])
        let page = try await Fixtures.client(transport).page(rider: "1")
        let trip = try #require(page.trips.first)
        #expect(trip.display.time == "9:00\u{202F}AM")
        #expect(trip.requestedAt == Date(timeIntervalSince1970: 1_772_352_000))
        #expect(trip.startedAt.timeIntervalSince(trip.requestedAt) == 240.25)
        #expect(trip.completedAt != nil)
        #expect(page.hasMore == false)
    }

    @Test func pagesWalkBackwardFromAnyPageToTheFirst() async throws {
        let transport = ScriptedTransport([.reply(.page([5, 4], next: "n3", prev: "p2"))])
        let client = Fixtures.client(transport)
        let third = try await client.page(rider: "1", cursor: "n2")
        await transport.append(.reply(.page([7, 6], next: "n2", prev: "p1")))
        await transport.append(.reply(.page([9, 8], next: "n1")))

        var newer: [[String]] = []
        for try await page in client.pages(rider: "1", adjacentTo: third, direction: .newer) {
            newer.append(page.trips.map(\.id))
        }
        #expect(newer == [["7", "6"], ["9", "8"]])
        #expect(await transport.query(of: 1)["cursor"] == "p2")
        #expect(await transport.query(of: 2)["cursor"] == "p1")
        #expect(await transport.requests.count == 3)
    }

    @Test func pagesAdjacentToTheLastPageGoingOlderAreNone() async throws {
        let transport = ScriptedTransport()
        let last = TripListPage(trips: [], nextCursor: nil, previousCursor: "p", etag: nil)
        var count = 0
        for try await _ in Fixtures.client(transport).pages(rider: "1", adjacentTo: last, direction: .older) {
            count += 1
        }
        #expect(count == 0)
        #expect(await transport.requests.isEmpty)
    }

    @Test func aProblemBecomesATypedUnrecoverableErrorWithoutRetries() async throws {
        let transport = ScriptedTransport([
            .reply(.problem(400, code: "invalid_parameter", retryable: false, param: "tz"))
        ])
        let sleeps = SleepRecorder()
        let error = await #expect(throws: TripHistoryError.self) {
            _ = try await Fixtures.client(transport, sleeps: sleeps).page(rider: "1")
        }
        #expect(error?.kind == .problem)
        #expect(error?.status == 400)
        #expect(error?.code == "invalid_parameter")
        #expect(error?.param == "tz")
        #expect(error?.requestID == "req-invalid_parameter")
        #expect(error?.isRecoverable == false)
        #expect(await transport.requests.count == 1)
        #expect(await sleeps.delays.isEmpty)
    }

    @Test(arguments: [(503, "unavailable"), (429, "too_many_requests")])
    func recoverableProblemsAreRetriedAfterRetryAfter(status: Int, code: String) async throws {
        let transport = ScriptedTransport([
            .reply(.problem(status, code: code, retryable: true, retryAfter: 7)), .reply(.page([1])),
        ])
        let sleeps = SleepRecorder()
        let page = try await Fixtures.client(transport, sleeps: sleeps).page(rider: "1")
        #expect(page.trips.map(\.id) == ["1"])
        #expect(await sleeps.delays == [7])
        #expect(await transport.requests.count == 2)
    }

    @Test func transportFailuresAreRetriedWithExponentialBackoffThenSurface() async throws {
        let transport = ScriptedTransport([.failure(.networkConnectionLost), .failure(.timedOut), .failure(.timedOut)])
        let sleeps = SleepRecorder()
        let error = await #expect(throws: TripHistoryError.self) {
            _ = try await Fixtures.client(transport, sleeps: sleeps, maxAttempts: 3).page(rider: "1")
        }
        #expect(error?.kind == .transport)
        #expect(error?.isRecoverable == true)
        #expect(error.map { String(describing: $0).contains("token-for-tests") } == false)
        #expect(await sleeps.delays == [1, 2])
        #expect(await transport.requests.count == 3)
    }

    @Test func aRetryAfterLongerThanTheLimitIsNotWaitedFor() async throws {
        let transport = ScriptedTransport([.reply(.problem(503, code: "unavailable", retryable: true, retryAfter: 120))]
        )
        let sleeps = SleepRecorder()
        let error = await #expect(throws: TripHistoryError.self) {
            _ = try await Fixtures.client(transport, sleeps: sleeps, maxDelay: 30).page(rider: "1")
        }
        #expect(error?.retryAfter == 120)
        #expect(error?.isRecoverable == true)
        #expect(await sleeps.delays.isEmpty)
        #expect(await transport.requests.count == 1)
    }

    @Test func firstPageIsRevalidatedWithItsETagAndA304KeepsIt() async throws {
        let transport = ScriptedTransport([
            .reply(.page([2, 1], next: "c1", etag: "\"first-etag-00000000000\"")),
            .reply(.notModified(etag: "\"first-etag-00000000000\"")),
            .reply(.page([3, 2], next: "c1b", etag: "\"second-etag-0000000000\"")),
        ])
        let client = Fixtures.client(transport)
        let first = try await client.firstPage(rider: "1")
        let again = try await client.firstPage(rider: "1")
        let changed = try await client.firstPage(rider: "1")

        #expect(first.changed)
        #expect(again.changed == false)
        #expect(again.page == first.page)
        #expect(changed.changed)
        #expect(changed.page.trips.map(\.id) == ["3", "2"])
        let requests = await transport.requests
        #expect(requests[0].headerFields[.ifNoneMatch] == nil)
        #expect(requests[1].headerFields[.ifNoneMatch] == "\"first-etag-00000000000\"")
        #expect(requests[2].headerFields[.ifNoneMatch] == "\"first-etag-00000000000\"")
    }

    @Test func anotherFilterHasItsOwnKeptFirstPage() async throws {
        let transport = ScriptedTransport([.reply(.page([2, 1])), .reply(.page([1]))])
        let client = Fixtures.client(transport)
        _ = try await client.firstPage(rider: "1")
        _ = try await client.firstPage(rider: "1", filter: TripFilter(status: .canceled))
        #expect(await transport.requests[1].headerFields[.ifNoneMatch] == nil)
    }

    @Test func cancellingTheReaderStopsPagingBeforeTheNextRequest() async throws {
        let gate = Gate()
        let transport = ScriptedTransport([
            .reply(.page([4, 3], next: "c1")), .held(gate, .page([2, 1], next: "c2")), .reply(.page([0])),
        ])
        let client = Fixtures.client(transport)
        let reader = Task {
            var ids: [String] = []
            for try await trip in client.trips(rider: "1") { ids.append(trip.id) }
            return ids
        }
        await transport.waitForRequests(2)
        reader.cancel()
        await gate.open()

        let result = await reader.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(await transport.requests.count == 2)
    }

    @Test func cancellationDuringARetryWaitMakesNoFurtherRequest() async throws {
        let transport = ScriptedTransport([.reply(.problem(503, code: "unavailable", retryable: true, retryAfter: 1))])
        let entered = Gate()
        let client = TripHistoryClient(
            serverURL: Fixtures.baseURL, transport: transport,
            retryPolicy: RetryPolicy(
                maxAttempts: 5, baseDelay: 1, maxDelay: 60,
                sleep: { _ in
                    await entered.open()
                    // Waits for the cancellation: only cancelling the task ends this wait.
                    while !Task.isCancelled { await Task.yield() }
                    throw CancellationError()
                }),
            token: { "t" })
        let reader = Task { try await client.page(rider: "1") }
        await entered.wait()
        reader.cancel()
        let result = await reader.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(await transport.requests.count == 1)
    }

    @Test func tokensComeFromTheProviderOnEveryRequest() async throws {
        let transport = ScriptedTransport([.reply(.page([2], next: "c")), .reply(.page([1]))])
        let counter = TokenCounter()
        let client = TripHistoryClient(
            serverURL: Fixtures.baseURL, transport: transport, token: { await counter.next() })
        for try await _ in client.trips(rider: "1") {}
        let requests = await transport.requests
        #expect(requests.map { $0.headerFields[.authorization] } == ["Bearer token-1", "Bearer token-2"])
    }

    @Test func aTokenProvidersErrorReachesTheCallerUnchangedAndUnretried() async throws {
        let transport = ScriptedTransport([.reply(.page([1]))])
        let sleeps = SleepRecorder()
        let client = TripHistoryClient(
            serverURL: Fixtures.baseURL, transport: transport,
            retryPolicy: RetryPolicy(
                maxAttempts: 3, baseDelay: 1, maxDelay: 5, sleep: { try await sleeps.record($0) }),
            token: { throw SignedOut() })
        await #expect(throws: SignedOut.self) { _ = try await client.page(rider: "1") }
        #expect(await transport.requests.isEmpty)
        #expect(await sleeps.delays.isEmpty)
    }

    @Test func dateBoundsAcceptDaysAndInstantsOnly() {
        #expect(DateBound("2026-03-01")?.text == "2026-03-01")
        #expect(DateBound("2026-03-01T08:00:00+01:00") != nil)
        #expect(DateBound("2026-3-1") == nil)
        #expect(DateBound("yesterday") == nil)
        #expect(DateBound.instant(Date(timeIntervalSince1970: 0)).text == "1970-01-01T00:00:00.000Z")
    }
}

/// The app's own failure to supply a token.
struct SignedOut: Error {}

/// Hands out a new token on every call, as an app refreshing its token would.
actor TokenCounter {
    private var count = 0

    func next() -> String {
        count += 1
        return "token-\(count)"
    }
}
