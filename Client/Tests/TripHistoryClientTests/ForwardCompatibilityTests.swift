import Foundation
import Testing
import TripHistoryClient

@testable import TripHistoryListModel

/// What the next version of the API may send, read by the client built from this version's `openapi.yaml`:
/// members it does not list (nested ones too), a trip status, a problem code and a `Content-Language` it
/// does not know. Each decodes; the known parts read as before and the unknown values come out as
/// `.unknown`, so adding them later is a compatible change.
@MainActor
@Suite struct ForwardCompatibilityTests {
    /// A trip as a later version might send it: `status` refunded, a number, an object and an array this
    /// version does not list, and members added inside `pickup`, `fare` and `display`.
    static func laterTripJSON(_ id: Int, status: String = "refunded") -> String {
        Fixtures.tripJSON(id)
            .replacingOccurrences(of: #""status":"completed""#, with: #""status":"\#(status)""#)
            .replacingOccurrences(
                of: #""city":"Paris","#,
                with:
                    #""city":"Paris","surge_multiplier":1.4,"co_rider":{"name":"Al","rating":4.9,"car":{"plate":"AB-123"}},"stops":[{"lat":48.86,"lon":2.34}],"#
            )
            .replacingOccurrences(
                of: #""address":"1 Rue de Rivoli"}"#, with: #""address":"1 Rue de Rivoli","floor":2}"#
            )
            .replacingOccurrences(of: #""refunds_minor":0}"#, with: #""refunds_minor":0,"cashback_minor":200}"#)
            .replacingOccurrences(of: #""status":"Completed"}"#, with: #""status":"Refunded","badge":"refund"}"#)
    }

    static func laterPage(_ trips: [String]) -> ScriptedTransport.Reply {
        var headers = Fixtures.okHeaders(etag: "\"etag-later-0000000000000\"")
        headers["Content-Language"] = "it-IT"
        headers["Deprecation"] = "@1798761600"
        let body = """
            {"data":[\(trips.joined(separator: ","))],\
            "page":{"limit":2,"has_more":true,"next_cursor":"c1","prev_cursor":null,"total_estimate":57},\
            "filter":{"from":null,"to":null,"tz":null,"status":null,"product":null},"links":{"self":"/v1/riders/1/trips"}}
            """
        return ScriptedTransport.Reply(status: 200, headers: headers, body: body)
    }

    @Test func aPageWithUnknownMembersAndStatusesDecodes() async throws {
        let transport = ScriptedTransport([
            .reply(Self.laterPage([Self.laterTripJSON(9), Self.laterTripJSON(8, status: "completed")]))
        ])
        let page = try await Fixtures.client(transport).page(rider: "1")
        #expect(page.trips.map(\.id) == ["9", "8"])
        #expect(page.nextCursor == "c1")
        #expect(page.hasMore)
        let refunded = try #require(page.trips.first)
        #expect(refunded.outcome == .unknown("refunded"))
        #expect(refunded.outcome.known == nil)
        #expect(refunded.outcome.rawValue == "refunded")
        #expect(refunded.display.status == "Refunded")
        #expect(refunded.riderId == "1")
        #expect(refunded.city == "Paris")
        #expect(refunded.pickup.address == "1 Rue de Rivoli")
        #expect(refunded.fare.amountMinor == 1850)
        #expect(refunded.fare.currency == "EUR")
        #expect(refunded.distanceM == 5200)
        #expect(refunded.requestedAt == Date(timeIntervalSince1970: 1_772_352_000))
        #expect(page.trips[1].outcome == .known(.completed))
        #expect(page.trips[1].outcome.known == .completed)
    }

    @Test func aTripWithUnknownMembersAndStatusDecodes() async throws {
        var headers = Fixtures.okHeaders(etag: "\"etag-later-0000000000001\"")
        headers["Content-Language"] = "pt-BR"
        let transport = ScriptedTransport([
            .reply(.init(status: 200, headers: headers, body: Self.laterTripJSON(42, status: "no_show")))
        ])
        let trip = try await Fixtures.client(transport).trip(rider: "1", id: "42")
        #expect(trip.id == "42")
        #expect(trip.outcome == .unknown("no_show"))
        #expect(trip.display.title == "Trip to Place Charles de Gaulle 42")
        #expect(trip.durationS == 1620)
        #expect(trip.completedAt != nil)
    }

    @Test func theListModelShowsTripsWithUnknownStatuses() async throws {
        let laterFeedStart = ScriptedTransport.Reply(
            status: 200, headers: Fixtures.okHeaders(etag: "\"feed-etag-later-000000\""),
            body: #"{"data":[],"page":{"has_more":false,"next_since":"t0","retention_days":30},"links":{}}"#)
        let transport = ScriptedTransport([
            .reply(laterFeedStart), .reply(Self.laterPage([Self.laterTripJSON(3), Self.laterTripJSON(2)])),
            .reply(
                .changes(
                    [
                        #"{"change":"merged","ids":["3","2"],"into":"4"}"#,
                        Fixtures.upsert(
                            Self.laterTripJSON(2).replacingOccurrences(of: #""version":1"#, with: #""version":2"#)),
                    ], next: "t1")),
        ])
        let model = TripListViewModel(client: Fixtures.client(transport), rider: "1")
        await model.load()
        guard case .loaded(let trips, let canLoadMore) = model.state else {
            Issue.record("expected trips, got \(model.state)")
            return
        }
        #expect(trips.map(\.id) == ["3", "2"])
        #expect(trips.map(\.outcome) == [.unknown("refunded"), .unknown("refunded")])
        #expect(canLoadMore)

        // A change of a kind this version does not know is skipped; the upsert beside it applies.
        await model.refresh()
        guard case .loaded(let refreshed, _) = model.state else {
            Issue.record("expected trips, got \(model.state)")
            return
        }
        #expect(refreshed.map(\.id) == ["3", "2"])
        #expect(refreshed.map(\.version) == [1, 2])
        #expect(model.lastRefresh?.tripsTransferred == 1)
    }

    /// A problem with a code this version does not know, and a member it does not list, is still a problem:
    /// its status, code, param, retryable and request id are read, and retrying follows `retryable`.
    @Test func aProblemWithAnUnknownCodeIsReadAndActedOnByRetryable() async throws {
        let suspended = ScriptedTransport.Reply(
            status: 403, headers: ["X-Request-ID": "req-s", "Content-Type": "application/problem+json"],
            body: """
                {"type":"urn:trip-history:problem:rider_suspended","title":"Rider suspended","status":403,\
                "detail":"The rider is suspended.","code":"rider_suspended","param":"rider_id","retryable":false,\
                "request_id":"req-s","support_url":"https://example.com/help"}
                """)
        let sleeps = SleepRecorder()
        let transport = ScriptedTransport([.reply(suspended)])
        let error = await #expect(throws: TripHistoryError.self) {
            _ = try await Fixtures.client(transport, sleeps: sleeps).page(rider: "1")
        }
        #expect(error?.kind == .problem)
        #expect(error?.status == 403)
        #expect(error?.code == "rider_suspended")
        #expect(error?.problemCode == .unknown("rider_suspended"))
        #expect(error?.param == "rider_id")
        #expect(error?.requestID == "req-s")
        #expect(error?.isRecoverable == false)
        #expect(await transport.requests.count == 1)

        // An unknown code the service calls retryable is retried like a known one.
        let retried = ScriptedTransport([
            .reply(.problem(503, code: "maintenance", retryable: true, retryAfter: 3)), .reply(.page([1])),
        ])
        let page = try await Fixtures.client(retried, sleeps: sleeps).page(rider: "1")
        #expect(page.trips.map(\.id) == ["1"])
        #expect(await sleeps.delays == [3])

        let known = ScriptedTransport([.reply(.problem(400, code: "invalid_cursor", retryable: false))])
        let knownError = await #expect(throws: TripHistoryError.self) {
            _ = try await Fixtures.client(known).page(rider: "1", cursor: "x")
        }
        #expect(knownError?.problemCode == .known(.invalidCursor))
    }

    @Test func anOpenEnumValueKeepsWhatItDoesNotKnow() {
        #expect(OpenEnumValue<TripStatus>(rawValue: "canceled") == .known(.canceled))
        #expect(OpenEnumValue<TripStatus>(rawValue: "refunded") == .unknown("refunded"))
        #expect(OpenEnumValue<TripStatus>(rawValue: "refunded").description == "refunded")
        #expect(OpenEnumValue<ProblemCode>(rawValue: "rate_limited").known == .rateLimited)
    }
}
