import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import NIOFoundationEssentialsCompat
import Synchronization
import Testing
import TripHistoryAPI
import TripHistoryApp
import TripHistoryCache
import TripHistoryDomain
import TripHistoryFakes
import TripHistoryHTTP
import TripHistoryTestSupport

/// Receipts, adjustments and the changes feed through the router, over the in-memory repository.
@Suite struct TripLifecycleRouteTests {
    typealias API = TestAPI<InMemoryTripRepository>

    /// A clock tests move by hand.
    final class TestClock: Sendable {
        private let current = Mutex(Date(timeIntervalSince1970: 1_772_500_000))
        var now: Date { current.withLock { $0 } }
        func advance(days: Double) { current.withLock { $0 = $0.addingTimeInterval(days * 86_400) } }
    }

    nonisolated(unsafe) static let receiptMembers: [String: Any] = [
        "payment": ["method": "card", "brand": "visa", "last4": "4242"],
        "driver": [
            "first_name": "Keiko",
            "vehicle": ["make": "Toyota", "model": "Prius", "color": "white", "plate": "品川 300 あ 12-34"],
        ],
        "route": ["polyline": "_p~iF~ps|U_ulLnnqC_mqNvxq`@"],
    ]

    /// A Tokyo trip of 1,500 JPY for rider 7, with a breakdown and the receipt's parts when asked.
    static func tripBody(receipt: Bool = true, status: String = "completed", extra: [String: Any] = [:]) -> ByteBuffer {
        var body = RecordTripRouteTests.validBody
        if status == "canceled" {
            body["status"] = "canceled"
            body["completed_at"] = NSNull()
        }
        if receipt {
            body["fare"] = [
                "amount_minor": 1500, "currency": "JPY",
                "breakdown": [
                    ["kind": "base", "amount_minor": 1000], ["kind": "distance", "amount_minor": 600],
                    ["kind": "promotion", "amount_minor": -100],
                ],
            ]
            body.merge(receiptMembers) { $1 }
        }
        body.merge(extra) { $1 }
        return ByteBuffer(data: try! JSONSerialization.data(withJSONObject: body))
    }

    static func adjustmentBody(
        _ kind: String, _ amount: Int64, reason: String = "rider tipped in the app"
    ) -> ByteBuffer {
        ByteBuffer(string: #"{"kind": "\#(kind)", "amount_minor": \#(amount), "reason": "\#(reason)"}"#)
    }

    private func record(
        _ client: some TestClientProtocol, _ api: API, body: ByteBuffer = tripBody()
    ) async throws -> String {
        try await client.execute(uri: "/v1/trips", method: .post, headers: try await api.recordHeaders(), body: body) {
            #expect($0.status == .created)
            #expect($0.headers[.eTag]?.hasPrefix("\"v1.") == true)
            return try #require($0.json().string("id"))
        }
    }

    @Test func theDetailCarriesTheReceiptAndTheListRowDoesNot() async throws {
        let api = await API(repository: InMemoryTripRepository())
        let rider = API.bearer(try await api.riderToken(7))
        try await api.test { client in
            let id = try await record(client, api)
            try await client.execute(uri: "/v1/riders/7/trips/\(id)", method: .get, headers: rider) { response in
                let json = response.json()
                #expect(json["version"] as? Int == 1)
                #expect(json.string("recorded_at") == json.string("updated_at"))
                #expect(json["fare.total_minor"] as? Int == 1500)
                #expect(
                    (json["fare.breakdown"] as? [[String: Any]])?.compactMap { $0["kind"] as? String } == [
                        "base", "distance", "promotion",
                    ])
                #expect(json.string("payment.last4") == "4242")
                #expect(json.string("driver.vehicle.plate") == "品川 300 あ 12-34")
                #expect(json.string("route.polyline") == "_p~iF~ps|U_ulLnnqC_mqNvxq`@")
                #expect((json["adjustments"] as? [Any])?.isEmpty == true)
                #expect(response.headers[.eTag]?.hasPrefix("\"v1.") == true)
            }
            try await client.execute(uri: "/v1/riders/7/trips", method: .get, headers: rider) { response in
                let row = try #require(response.json().trips.first)
                #expect(row["version"] as? Int == 1)
                #expect((row["fare"] as? [String: Any])?["total_minor"] as? Int == 1500)
                for member in ["payment", "driver", "route", "adjustments"] { #expect(row[member] == nil) }
                #expect((row["fare"] as? [String: Any])?["breakdown"] == nil)
            }
        }
    }

    @Test func aTipUpdatesVersionTotalAndDisplayEverywhere() async throws {
        let clock = TestClock()
        let api = await API(
            repository: InMemoryTripRepository(now: { clock.now }),
            settings: {
                $0.cache = TripResponseCache()
                $0.now = { clock.now }
            })
        let rider = API.bearer(try await api.riderToken(7))
        let service = try await api.recordHeaders()
        try await api.test { client in
            let id = try await record(client, api)
            // Cached before the tip: the tip must drop it.
            let before = try await client.execute(uri: "/v1/riders/7/trips/\(id)", method: .get, headers: rider) {
                try #require($0.headers[.eTag])
            }
            let tag = try await client.execute(
                uri: "/v1/riders/7/trips/\(id)/adjustments", method: .post,
                headers: service.merging([.ifMatch: before]), body: Self.adjustmentBody("tip", 300)
            ) { response in
                #expect(response.status == .created)
                let json = response.json()
                #expect(json["version"] as? Int == 2)
                #expect(json["fare.amount_minor"] as? Int == 1500)
                #expect(json["fare.total_minor"] as? Int == 1800)
                #expect(json["fare.tips_minor"] as? Int == 300)
                #expect(json.string("display.fare") == "¥1,800")
                let ledger = try #require(json["adjustments"] as? [[String: Any]])
                #expect(
                    ledger.count == 1 && ledger[0]["kind"] as? String == "tip"
                        && ledger[0]["amount_minor"] as? Int == 300)
                #expect(response.headers[.location] == "/v1/riders/7/trips/\(id)")
                return try #require(response.headers[.eTag])
            }
            #expect(tag.hasPrefix("\"v2."))
            try await client.execute(
                uri: "/v1/riders/7/trips/\(id)", method: .get, headers: rider.merging([.ifNoneMatch: before])
            ) { response in
                #expect(response.status == .ok)
                #expect(response.json()["version"] as? Int == 2)
                #expect(response.headers[.eTag] != before)
            }
            try await client.execute(uri: "/v1/riders/7/trips", method: .get, headers: rider) { response in
                let row = try #require(response.json().trips.first)
                #expect(row["version"] as? Int == 2)
                #expect((row["display"] as? [String: Any])?["fare"] as? String == "¥1,800")
            }
            // The tag of the 201 is current: If-Match with it is honoured, the one before is stale.
            try await client.execute(
                uri: "/v1/riders/7/trips/\(id)/adjustments", method: .post,
                headers: service.merging([.ifMatch: before]),
                body: Self.adjustmentBody("refund", -200)
            ) { response in
                #expect(response.status == .preconditionFailed)
                #expect(response.json().string("code") == "precondition_failed")
                #expect(response.json().string("param") == "If-Match")
            }
            try await client.execute(
                uri: "/v1/riders/7/trips/\(id)/adjustments", method: .post, headers: service.merging([.ifMatch: tag]),
                body: Self.adjustmentBody("refund", -200)
            ) { response in
                #expect(response.status == .created)
                #expect(response.json()["fare.refunds_minor"] as? Int == -200)
                #expect(response.json()["fare.total_minor"] as? Int == 1600)
            }
            try await client.execute(
                uri: "/v1/riders/7/trips/\(id)/adjustments", method: .post,
                headers: service.merging([.ifMatch: "\"not-ours\""]), body: Self.adjustmentBody("tip", 1)
            ) { #expect($0.status == .preconditionFailed) }
        }
    }

    @Test func anAdjustmentReplaysUnderItsKeyAndRefusesAnotherBody() async throws {
        let clock = TestClock()
        let repository = InMemoryTripRepository(now: { clock.now })
        let api = await API(
            repository: repository,
            settings: {
                $0.now = { clock.now }
            })
        try await api.test { client in
            let id = try await record(client, api)
            let keyed = try await api.recordHeaders(idempotencyKey: "tip-0001")
            for attempt in 0..<2 {
                try await client.execute(
                    uri: "/v1/riders/7/trips/\(id)/adjustments", method: .post, headers: keyed,
                    body: Self.adjustmentBody("tip", 300)
                ) { response in
                    #expect(response.status == .created)
                    #expect(response.json()["version"] as? Int == 2)
                    #expect(response.headers[HTTPField.Name("Idempotent-Replayed")!] == (attempt == 0 ? nil : "true"))
                }
            }
            try await client.execute(
                uri: "/v1/riders/7/trips/\(id)/adjustments", method: .post, headers: keyed,
                body: Self.adjustmentBody("tip", 400)
            ) { response in
                #expect(response.status == .unprocessableContent)
                #expect(response.json().string("code") == "idempotency_key_reused")
            }
            // A malformed key is reported before the precondition is evaluated.
            let badKey = try await api.recordHeaders(idempotencyKey: "a key with spaces")
            try await client.execute(
                uri: "/v1/riders/7/trips/\(id)/adjustments", method: .post,
                headers: badKey.merging([.ifMatch: "\"not-ours\""]), body: Self.adjustmentBody("tip", 400)
            ) { response in
                #expect(response.status == .unprocessableContent)
                #expect(response.json().string("param") == "Idempotency-Key")
            }
            // So is a sign the kind forbids (schemathesis sent a positive refund with a stale If-Match).
            let fresh = try await api.recordHeaders(idempotencyKey: "refund-sign-0001")
            for (kind, amount) in [("refund", 13_019), ("tip", -300)] {
                try await client.execute(
                    uri: "/v1/riders/7/trips/\(id)/adjustments", method: .post,
                    headers: fresh.merging([.ifMatch: "\"v1.stale\""]), body: Self.adjustmentBody(kind, Int64(amount))
                ) { response in
                    #expect(response.status == .unprocessableContent, "\(kind) \(amount)")
                    #expect(response.json().string("param") == "amount_minor")
                }
            }
            #expect(repository.allTrips.first?.lifecycle.version == 2)
        }
    }

    @Test func onlyServicesAdjustAndOnlyTheOwnersTrips() async throws {
        let api = await API(repository: InMemoryTripRepository())
        try await api.test { client in
            let id = try await record(client, api)
            for token in [try await api.riderToken(7), try await api.analystToken()] {
                try await client.execute(
                    uri: "/v1/riders/7/trips/\(id)/adjustments", method: .post,
                    headers: API.bearer(token).merging([.contentType: "application/json"]),
                    body: Self.adjustmentBody("tip", 300)
                ) { #expect($0.status == .forbidden) }
            }
            let service = try await api.recordHeaders()
            for uri in ["/v1/riders/8/trips/\(id)/adjustments", "/v1/riders/7/trips/999/adjustments"] {
                try await client.execute(
                    uri: uri, method: .post, headers: service, body: Self.adjustmentBody("tip", 300)
                ) {
                    #expect($0.status == .notFound)
                }
            }
            try await client.execute(uri: "/v1/riders/7/trips/\(id)/adjustments", method: .get, headers: service) {
                #expect($0.status == .methodNotAllowed)
            }
        }
    }

    @Test func theRulesAreProblemsNamingTheField() async throws {
        let clock = TestClock()
        let api = await API(
            repository: InMemoryTripRepository(now: { clock.now }),
            settings: {
                $0.now = { clock.now }
            })
        let service = try await api.recordHeaders()
        try await api.test { client in
            let completed = try await record(client, api)
            let canceled = try await record(client, api, body: Self.tripBody(receipt: false, status: "canceled"))
            let cases: [(String, ByteBuffer, HTTPResponse.Status, String)] = [
                (canceled, Self.adjustmentBody("tip", 300), .unprocessableContent, "kind"),
                (completed, Self.adjustmentBody("tip", -300), .unprocessableContent, "amount_minor"),
                (completed, Self.adjustmentBody("tip", 3001), .unprocessableContent, "amount_minor"),
                (completed, Self.adjustmentBody("refund", -1501), .unprocessableContent, "amount_minor"),
                (completed, Self.adjustmentBody("gift", 10), .unprocessableContent, "kind"),
                (completed, Self.adjustmentBody("tip", 0), .unprocessableContent, "amount_minor"),
                (completed, Self.adjustmentBody("tip", 10, reason: ""), .unprocessableContent, "reason"),
                (completed, ByteBuffer(string: #"{"kind": "tip", "reason": "x"}"#), .badRequest, "amount_minor"),
                (
                    completed, Self.adjustmentBody("tip", 10, reason: "card 4111 1111 1111 1111"),
                    .unprocessableContent, "reason"
                ),
            ]
            for (id, body, status, param) in cases {
                try await client.execute(
                    uri: "/v1/riders/7/trips/\(id)/adjustments", method: .post, headers: service, body: body
                ) {
                    response in
                    #expect(response.status == status)
                    #expect(response.json().string("param") == param)
                }
            }
            // The rider completed the trip long ago: the window has closed.
            clock.advance(days: 31)
            try await client.execute(
                uri: "/v1/riders/7/trips/\(completed)/adjustments", method: .post, headers: service,
                body: Self.adjustmentBody("tip", 300)
            ) { response in
                #expect(response.status == .unprocessableContent)
                #expect(response.json().string("param") == "kind")
            }
        }
    }

    @Test(arguments: ["payment", "driver", "route"])
    func anExplicitNullReceiptMemberIsABadRequestNamingIt(member: String) async throws {
        let api = await API(repository: InMemoryTripRepository())
        try await api.test { client in
            try await client.execute(
                uri: "/v1/trips", method: .post, headers: try await api.recordHeaders(),
                body: Self.tripBody(receipt: false, extra: [member: NSNull()])
            ) { response in
                #expect(response.status == .badRequest)
                #expect(response.json().string("param") == member)
            }
        }
    }

    @Test func aCardNumberAnywhereInATripIsRefusedAndNeverStored() async throws {
        let repository = InMemoryTripRepository()
        let api = await API(repository: repository)
        let service = try await api.recordHeaders()
        nonisolated(unsafe) let cases: [([String: Any], String)] = [
            (["driver": ["first_name": "4111 1111 1111 1111"]], "driver.first_name"),
            (["payment": ["method": "card", "brand": "4111-1111-1111-1111"]], "payment.brand"),
            (["pickup": ["lat": 35.6, "lon": 139.7, "address": "4111111111111111 Tokyo"]], "pickup.address"),
            (["made_up_member": "4111111111111111"], "body"),
        ]
        try await api.test { client in
            for (extra, param) in cases {
                try await client.execute(
                    uri: "/v1/trips", method: .post, headers: service, body: Self.tripBody(receipt: false, extra: extra)
                ) { response in
                    #expect(response.status == .unprocessableContent)
                    #expect(response.json().string("param") == param)
                    #expect(!String(buffer: response.body).contains("4111"))
                }
            }
        }
        #expect(repository.allTrips.isEmpty)
    }

    @Test func theFeedHandsOutEachChangeOnceAndRefusesForeignAndStaleTokens() async throws {
        let clock = TestClock()
        let repository = InMemoryTripRepository(now: { clock.now })
        let api = await API(
            repository: repository,
            settings: {
                $0.cache = TripResponseCache()
                $0.now = { clock.now }
            })
        let rider = API.bearer(try await api.riderToken(7))
        let service = try await api.recordHeaders()
        try await api.test { client in
            let kept = try await record(client, api)
            // The first read stands for now: no data, a token.
            let start = try await client.execute(uri: "/v1/riders/7/trips/changes", method: .get, headers: rider) {
                response in
                #expect(response.status == .ok)
                #expect((response.json()["data"] as? [Any])?.isEmpty == true)
                #expect(response.json()["page.has_more"] as? Bool == false)
                return try #require(response.json().string("page.next_since"))
            }
            try await client.execute(
                uri: "/v1/riders/7/trips/\(kept)/adjustments", method: .post, headers: service,
                body: Self.adjustmentBody("tip", 300)
            ) { #expect($0.status == .created) }
            let (next, tag) = try await client.execute(
                uri: "/v1/riders/7/trips/changes?since=\(start)", method: .get, headers: rider
            ) { response in
                let data = try #require(response.json()["data"] as? [[String: Any]])
                #expect(data.count == 1)
                #expect(data.first?["change"] as? String == "upsert")
                let trip = try #require(data.first?["trip"] as? [String: Any])
                #expect(trip["id"] as? String == kept && trip["version"] as? Int == 2)
                #expect(trip["adjustments"] == nil)
                return (try #require(response.json().string("page.next_since")), try #require(response.headers[.eTag]))
            }
            // Asked again with the same token, nothing changed: a 304.
            try await client.execute(
                uri: "/v1/riders/7/trips/changes?since=\(start)", method: .get,
                headers: rider.merging([.ifNoneMatch: tag])
            ) { #expect($0.status == .notModified) }
            try await client.execute(uri: "/v1/riders/7/trips/changes?since=\(next)", method: .get, headers: rider) {
                #expect(($0.json()["data"] as? [Any])?.isEmpty == true)
                #expect($0.json().string("page.next_since") == next)
            }
            // An erasure drops the cached page and reaches the feed as erased ids.
            try await client.execute(
                uri: "/v1/riders/7", method: .delete, headers: API.bearer(try await api.privacyToken())
            ) { #expect($0.status == .noContent) }
            try await client.execute(uri: "/v1/riders/7/trips/changes?since=\(next)", method: .get, headers: rider) {
                let data = $0.json()["data"] as? [[String: Any]]
                #expect(data?.map { $0["change"] as? String } == ["erased"])
                #expect(data?.first?["id"] as? String == kept)
            }
            // Analysts read anyone's feed; another rider gets a 404, and the token of another rider's feed is refused.
            try await client.execute(
                uri: "/v1/riders/7/trips/changes?since=\(next)", method: .get,
                headers: API.bearer(try await api.analystToken())
            ) { #expect($0.status == .ok) }
            try await client.execute(
                uri: "/v1/riders/7/trips/changes", method: .get, headers: API.bearer(try await api.riderToken(8))
            ) { #expect($0.status == .notFound) }
            let eight = API.bearer(try await api.riderToken(8))
            try await client.execute(uri: "/v1/riders/8/trips/changes?since=\(next)", method: .get, headers: eight) {
                #expect($0.status == .badRequest)
                #expect($0.json().string("code") == "cursor_mismatch")
                #expect($0.json().string("param") == "since")
            }
            try await client.execute(uri: "/v1/riders/7/trips/changes?since=AAAA", method: .get, headers: rider) {
                #expect($0.status == .badRequest)
                #expect($0.json().string("code") == "invalid_cursor")
            }
            try await client.execute(uri: "/v1/riders/7/trips/changes?limit=201", method: .get, headers: rider) {
                #expect($0.status == .badRequest)
                #expect($0.json().string("param") == "limit")
            }
            clock.advance(days: 31.1)
            try await client.execute(uri: "/v1/riders/7/trips/changes?since=\(next)", method: .get, headers: rider) {
                #expect($0.status == .gone)
                #expect($0.json().string("code") == "sync_token_expired")
            }
        }
    }

    @Test func theFeedPagesOldestFirstWithoutGapsOrRepeats() async throws {
        let api = await API(repository: InMemoryTripRepository())
        let rider = API.bearer(try await api.riderToken(7))
        try await api.test { client in
            let start = try await client.execute(uri: "/v1/riders/7/trips/changes", method: .get, headers: rider) {
                try #require($0.json().string("page.next_since"))
            }
            var recorded: [String] = []
            for _ in 0..<7 { recorded.append(try await record(client, api, body: Self.tripBody(receipt: false))) }
            var seen: [String] = []
            var since = start
            var more = true
            while more {
                (since, more) = try await client.execute(
                    uri: "/v1/riders/7/trips/changes?since=\(since)&limit=3", method: .get, headers: rider
                ) { response in
                    let data = response.json()["data"] as? [[String: Any]] ?? []
                    #expect(data.count <= 3)
                    seen += data.compactMap { ($0["trip"] as? [String: Any])?["id"] as? String }
                    return (
                        try #require(response.json().string("page.next_since")),
                        response.json()["page.has_more"] as? Bool ?? false
                    )
                }
            }
            #expect(seen == recorded)
        }
    }

    /// The analysts' feed: analysts only; a first read stands for now; pages follow the feed's order with
    /// upserts and erasures of every rider; tokens of a rider's feed, forged ones and stale ones are refused.
    @Test func theAnalystsFeedPagesEveryRidersChangesAndChecksItsTokens() async throws {
        let clock = TestClock()
        let trips = (1...2).map { index in
            let new = InMemoryAnalystFixtures.newTrip(
                rider: Int64(index), city: "Paris", requestedAt: InMemoryAnalystFixtures.start, fare: 1000)
            return Trip(
                id: TripID(Int64(index))!, riderID: new.riderID, details: new.details,
                lifecycle: .recorded(at: new.details.requestedAt))
        }
        let analystRepository = InMemoryAnalystTripRepository(trips: trips)
        let api = await API(
            repository: InMemoryTripRepository(), analystRepository: analystRepository,
            settings: {
                $0.now = { clock.now }
            })
        let analyst = API.bearer(try await api.analystToken())
        try await api.test { client in
            for headers in [API.bearer(try await api.riderToken(1)), API.bearer(try await api.serviceToken())] {
                try await client.execute(uri: "/v1/trips/changes", method: .get, headers: headers) {
                    #expect($0.status == .forbidden)
                }
            }
            let start = try await client.execute(uri: "/v1/trips/changes", method: .get, headers: analyst) {
                response in
                #expect(response.status == .ok)
                #expect((response.json()["data"] as? [Any])?.isEmpty == true)
                #expect(response.json()["page.has_more"] as? Bool == false)
                return try #require(response.json().string("page.next_since"))
            }
            analystRepository.logChange(.upsert(trips[0]), riderID: trips[0].riderID)
            analystRepository.logChange(.upsert(trips[1]), riderID: trips[1].riderID)
            analystRepository.logChange(.erased(trips[0].id), riderID: trips[0].riderID)
            let next = try await client.execute(
                uri: "/v1/trips/changes?since=\(start)&limit=2", method: .get, headers: analyst
            ) { response in
                #expect(response.status == .ok)
                let data = response.json()["data"] as? [[String: Any]] ?? []
                #expect(data.map { $0["change"] as? String } == ["upsert", "upsert"])
                #expect(data.map { ($0["trip"] as? [String: Any])?["rider_id"] as? String } == ["1", "2"])
                #expect(response.json()["page.has_more"] as? Bool == true)
                return try #require(response.json().string("page.next_since"))
            }
            try await client.execute(uri: "/v1/trips/changes?since=\(next)", method: .get, headers: analyst) {
                response in
                let data = response.json()["data"] as? [[String: Any]] ?? []
                #expect(data.count == 1)
                #expect(data.first?["change"] as? String == "erased")
                #expect(data.first?["id"] as? String == "1")
                #expect(response.json()["page.has_more"] as? Bool == false)
            }
            // A rider feed's token, well signed, belongs to another feed.
            let riderToken = try await client.execute(
                uri: "/v1/riders/1/trips/changes", method: .get, headers: API.bearer(try await api.riderToken(1))
            ) { try #require($0.json().string("page.next_since")) }
            try await client.execute(uri: "/v1/trips/changes?since=\(riderToken)", method: .get, headers: analyst) {
                #expect($0.status == .badRequest)
                #expect($0.json().string("code") == "cursor_mismatch")
                #expect($0.json().string("param") == "since")
            }
            try await client.execute(
                uri: "/v1/riders/1/trips/changes?since=\(next)", method: .get,
                headers: API.bearer(try await api.riderToken(1))
            ) { #expect($0.json().string("code") == "cursor_mismatch") }
            try await client.execute(uri: "/v1/trips/changes?since=AAAA", method: .get, headers: analyst) {
                #expect($0.status == .badRequest)
                #expect($0.json().string("code") == "invalid_cursor")
            }
            try await client.execute(uri: "/v1/trips/changes?limit=0", method: .get, headers: analyst) {
                #expect($0.status == .badRequest)
                #expect($0.json().string("param") == "limit")
            }
            try await client.execute(
                uri: "/v1/trips/changes?since=\(next)&since=\(next)", method: .get, headers: analyst
            ) {
                #expect($0.status == .badRequest)
                #expect($0.json().string("param") == "since")
            }
            clock.advance(days: 31.1)
            try await client.execute(uri: "/v1/trips/changes?since=\(next)", method: .get, headers: analyst) {
                #expect($0.status == .gone)
                #expect($0.json().string("code") == "sync_token_expired")
            }
        }
    }
}
