import Foundation
import Testing

@testable import TripHistoryClient

@Suite struct ChangesFeedTests {
    @Test func aPageOfChangesDecodesUpsertsAndErasedIdsAndSkipsUnknownKinds() async throws {
        let etag = "\"feed-etag-000000000001\""
        let transport = ScriptedTransport([
            .reply(
                .changes(
                    [
                        Fixtures.upsert(Fixtures.tripJSON(4, version: 2, tipMinor: 200)),
                        #"{"change":"merged","ids":["1","2"],"into":"5"}"#, Fixtures.erased(3),
                    ], next: "t1", hasMore: true, etag: etag))
        ])
        let client = Fixtures.client(transport, language: "fr-FR")
        let answer = try await client.changes(
            rider: "1", since: "t0", limit: 10, ifNoneMatch: "\"feed-etag-000000000000\"")

        guard case .page(let page) = answer else {
            Issue.record("expected a page, got \(answer)")
            return
        }
        #expect(page.changes.map(\.tripID) == ["4", "3"])
        guard case .upsert(let trip) = page.changes.first else {
            Issue.record("expected an upsert, got \(page.changes)")
            return
        }
        #expect(trip.version == 2)
        #expect(trip.fare.totalMinor == 2050)
        #expect(trip.fare.tipsMinor == 200)
        #expect(trip.display.fare == "€20.50")
        #expect(page.changes.last == .erased(id: "3"))
        #expect(page.nextSince == "t1")
        #expect(page.hasMore)
        #expect(page.etag == etag)

        let request = try #require(await transport.requests.first)
        #expect(request.path?.hasPrefix("/v1/riders/1/trips/changes?") == true)
        #expect(await transport.query(of: 0) == ["since": "t0", "limit": "10"])
        // Sent verbatim, quotes included, so that it can match.
        #expect(request.headerFields[.ifNoneMatch] == "\"feed-etag-000000000000\"")
        #expect(request.headerFields[.acceptLanguage] == "fr-FR")
    }

    @Test func withoutSinceTheAnswerIsATokenForNow() async throws {
        let transport = ScriptedTransport([.reply(.feedStart("now-token"))])
        let answer = try await Fixtures.client(transport).changes(rider: "1")
        #expect(answer == .page(TripChangePage(changes: [], nextSince: "now-token", hasMore: false, etag: answer.etag)))
        #expect(await transport.requests.first?.path == "/v1/riders/1/trips/changes")
        #expect(await transport.requests.first?.headerFields[.ifNoneMatch] == nil)
    }

    @Test func a304MeansNothingChanged() async throws {
        let etag = "\"feed-etag-000000000002\""
        let transport = ScriptedTransport([.reply(.notModified(etag: etag))])
        let answer = try await Fixtures.client(transport).changes(rider: "1", since: "t1", ifNoneMatch: etag)
        #expect(answer == .notModified)
    }

    @Test(arguments: [
        (410, "sync_token_expired", true, true), (400, "cursor_mismatch", false, true),
        (400, "invalid_cursor", false, true), (400, "invalid_parameter", false, false),
    ])
    func aRefusedTokenIsADistinctUnrecoverableError(
        status: Int, code: String, expired: Bool, refused: Bool
    )
        async throws
    {
        let sleeps = SleepRecorder()
        let transport = ScriptedTransport([.reply(.problem(status, code: code, retryable: false, param: "since"))])
        let error = await #expect(throws: TripHistoryError.self) {
            _ = try await Fixtures.client(transport, sleeps: sleeps).changes(rider: "1", since: "old")
        }
        #expect(error?.status == status)
        #expect(error?.code == code)
        #expect(error?.isSyncTokenExpired == expired)
        #expect(error?.isSyncTokenRefused == refused)
        #expect(error?.isRecoverable == false)
        #expect(await transport.requests.count == 1)
        #expect(await sleeps.delays.isEmpty)
        if expired { #expect(error?.problemCode == .known(.syncTokenExpired)) }
    }

    @Test func anUpsertWithoutItsTripIsAnUnexpectedResponse() async throws {
        let transport = ScriptedTransport([.reply(.changes([#"{"change":"upsert","id":"4"}"#], next: "t1"))])
        let error = await #expect(throws: TripHistoryError.self) {
            _ = try await Fixtures.client(transport).changes(rider: "1", since: "t0")
        }
        #expect(error?.kind == .unexpectedResponse)
    }
}

extension TripChanges {
    /// The page's entity tag; nil for a `304`.
    fileprivate var etag: String? {
        if case .page(let page) = self { page.etag } else { nil }
    }
}
