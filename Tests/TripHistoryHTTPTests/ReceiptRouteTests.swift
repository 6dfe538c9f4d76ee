import Crypto
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing
import TripHistoryAPI
import TripHistoryApp
import TripHistoryCache
import TripHistoryFakes
import TripHistoryTestSupport

/// `GET /v1/riders/{rider_id}/trips/{trip_id}/receipt` through the router, over the in-memory repository.
@Suite struct ReceiptRouteTests {
    typealias API = TestAPI<InMemoryTripRepository>

    /// An API whose clock stands two days after the trips of `TripLifecycleRouteTests.tripBody()`, so they may
    /// be tipped; with `cache` in front of the rider reads when given.
    static func api(cache: TripResponseCache? = nil) async -> API {
        let clock = TripLifecycleRouteTests.TestClock()
        return await API(
            repository: InMemoryTripRepository(now: { clock.now }),
            settings: {
                $0.cache = cache
                $0.now = { clock.now }
            })
    }

    /// What the receipt of `TripLifecycleRouteTests.tripBody()` after a tip of 300 shows in each locale: the
    /// label of its first line (`base`), of its tips, of its total, and the total.
    static let expected: [(language: String, base: String, tips: String, total: String, amount: String)] = [
        ("en-US", "Base fare", "Tips", "Total", "¥1,800"),
        ("en-GB", "Base fare", "Tips", "Total", "JP¥1,800"),
        ("fr-FR", "Prix de base", "Pourboires", "Total", "1\u{202F}800\u{00A0}JPY"),
        ("de-DE", "Grundpreis", "Trinkgeld", "Gesamt", "1.800\u{00A0}¥"),
        ("ja-JP", "基本料金", "チップ", "合計", "¥1,800"),
        ("es-ES", "Tarifa base", "Propinas", "Total", "1800\u{00A0}JPY"),
    ]

    private func record(
        _ client: some TestClientProtocol, _ api: API, body: ByteBuffer = TripLifecycleRouteTests.tripBody()
    ) async throws -> String {
        try await client.execute(uri: "/v1/trips", method: .post, headers: try await api.recordHeaders(), body: body) {
            #expect($0.status == .created)
            return try #require($0.json().string("id"))
        }
    }

    private func tip(_ client: some TestClientProtocol, _ api: API, trip id: String, _ amount: Int64) async throws {
        try await client.execute(
            uri: "/v1/riders/7/trips/\(id)/adjustments", method: .post, headers: try await api.recordHeaders(),
            body: TripLifecycleRouteTests.adjustmentBody("tip", amount)
        ) { #expect($0.status == .created) }
    }

    @Test(arguments: 0..<expected.count)
    func theJSONReceiptIsInTheNegotiatedLocale(index: Int) async throws {
        let expected = Self.expected[index]
        let api = await Self.api()
        let rider = API.bearer(try await api.riderToken(7)).merging([
            .accept: "application/json", .acceptLanguage: expected.language,
        ])
        try await api.test { client in
            let id = try await record(client, api)
            try await tip(client, api, trip: id, 300)
            try await client.execute(uri: "/v1/riders/7/trips/\(id)/receipt", method: .get, headers: rider) {
                response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/json")
                #expect(response.headers[.contentLanguage] == expected.language)
                #expect(response.headers[.vary] == "Authorization, Accept, Accept-Language")
                #expect(response.headers[.cacheControl] == "private, no-cache")
                #expect(response.headers[HTTPField.Name("Content-Security-Policy")!] == nil)
                let json = response.json()
                #expect(json.string("trip_id") == id)
                #expect(json.string("locale") == expected.language)
                let lines = try #require(json["lines"] as? [[String: Any]])
                #expect(lines.compactMap { $0["kind"] as? String } == ["base", "distance", "promotion"])
                #expect(lines.compactMap { $0["amount_minor"] as? Int } == [1000, 600, -100])
                #expect(lines.first?["label"] as? String == expected.base)
                #expect(json["fare.amount_minor"] as? Int == 1500)
                #expect(json.string("tips.label") == expected.tips)
                #expect(json["tips.amount_minor"] as? Int == 300)
                #expect(json["refunds"] == nil && json["corrections"] == nil)
                #expect(json.string("total.label") == expected.total)
                #expect(json["total.amount_minor"] as? Int == 1800)
                #expect(json.string("total.amount") == expected.amount)
                #expect(json.string("currency") == "JPY")
                #expect(json.string("payment.method") == "card")
                #expect(json.string("payment.label") == "visa •••• 4242")
                #expect(json.string("trip.from") == "Tokyo Station, 1 Chome Marunouchi")
                #expect(json.string("trip.to") == "Tokyo Tower, 4 Chome-2-8 Shibakoen")
                #expect(json.string("trip.driver") == "Keiko")
                #expect(json.string("trip.vehicle") == "Toyota Prius · white · 品川 300 あ 12-34")
                for member in ["date", "time", "distance", "duration"] {
                    #expect(json.string("trip.\(member)")?.isEmpty == false, "trip.\(member)")
                }
            }
            // The detail's display strings are the same ones.
            try await client.execute(uri: "/v1/riders/7/trips/\(id)", method: .get, headers: rider) { response in
                #expect(response.json().string("display.fare") == expected.amount)
            }
        }
    }

    @Test func aTripWithoutBreakdownHasOneFareLineAndEveryAdjustmentKindShows() async throws {
        let api = await Self.api()
        let rider = API.bearer(try await api.riderToken(7))
        try await api.test { client in
            let id = try await record(client, api, body: TripLifecycleRouteTests.tripBody(receipt: false))
            for (kind, amount) in [("refund", -200), ("fare_correction", 50)] {
                try await client.execute(
                    uri: "/v1/riders/7/trips/\(id)/adjustments", method: .post, headers: try await api.recordHeaders(),
                    body: TripLifecycleRouteTests.adjustmentBody(kind, Int64(amount))
                ) { #expect($0.status == .created) }
            }
            try await client.execute(uri: "/v1/riders/7/trips/\(id)/receipt", method: .get, headers: rider) {
                response in
                let json = response.json()
                let lines = try #require(json["lines"] as? [[String: Any]])
                #expect(lines.count == 1)
                #expect(lines.first?["kind"] as? String == "fare")
                #expect(lines.first?["label"] as? String == "Fare")
                #expect(lines.first?["amount_minor"] as? Int == 1500)
                #expect(json["tips"] == nil)
                #expect(json.string("refunds.label") == "Refunds")
                #expect(json["refunds.amount_minor"] as? Int == -200)
                #expect(json.string("corrections.label") == "Fare corrections")
                #expect(json["corrections.amount_minor"] as? Int == 50)
                #expect(json["total.amount_minor"] as? Int == 1350)
                #expect(json["payment"] == nil && json["trip.driver"] == nil && json["trip.vehicle"] == nil)
            }
        }
    }

    @Test func theHTMLReceiptIsSelfContainedEscapedAndLockedDown() async throws {
        let api = await Self.api()
        let rider = API.bearer(try await api.riderToken(7)).merging([
            .accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", .acceptLanguage: "fr-FR",
        ])
        let hostile = #"<script>alert("x")</script> & 'Gare' <img src=x onerror=alert(1)>"#
        try await api.test { client in
            let id = try await record(
                client, api,
                body: TripLifecycleRouteTests.tripBody(extra: [
                    "dropoff": ["lat": 35.6586, "lon": 139.7454, "address": hostile]
                ]))
            try await client.execute(uri: "/v1/riders/7/trips/\(id)/receipt", method: .get, headers: rider) {
                response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/html; charset=utf-8")
                #expect(response.headers[.contentLanguage] == "fr-FR")
                #expect(response.headers[.vary] == "Authorization, Accept, Accept-Language")
                let html = String(buffer: response.body)
                #expect(html.hasPrefix("<!doctype html>"))
                #expect(html.contains(#"<html lang="fr-FR">"#))
                #expect(html.contains("<h1>Reçu</h1>"))
                #expect(html.contains("1\u{202F}500\u{00A0}JPY"))
                #expect(html.contains("visa •••• 4242"))
                // The address is text, never markup.
                #expect(!html.contains("<script"))
                #expect(!html.contains("<img"))
                #expect(
                    html.contains(
                        "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;Gare&#39; &lt;img src=x "
                            + "onerror=alert(1)&gt;"))
                // Nothing to fetch: no link, image, frame or script element, no URL (but the address's text).
                let page = html.replacingOccurrences(of: "src=x onerror", with: "")
                for forbidden in ["<link", "<script", "src=", "href=", "url(", "@import", "http://", "https://"] {
                    #expect(!page.contains(forbidden), "\(forbidden)")
                }
                #expect(html.contains("@media print"))
                let policy = try #require(response.headers[HTTPField.Name("Content-Security-Policy")!])
                #expect(policy.hasPrefix("default-src 'none'; "))
                #expect(!policy.contains("unsafe"))
                #expect(policy.contains("frame-ancestors 'none'"))
                // The one style element is what the policy's hash allows.
                let styles = html.components(separatedBy: "<style>").dropFirst()
                #expect(styles.count == 1)
                let style = try #require(styles.first?.components(separatedBy: "</style>").first)
                let digest = Data(SHA256.hash(data: Array(style.utf8))).base64EncodedString()
                #expect(policy.contains("style-src 'sha256-\(digest)'"))
                #expect(!html.contains("style="))
            }
        }
    }

    @Test(
        arguments: [
            (nil, "application/json"), ("*/*", "application/json"), ("application/*", "application/json"),
            ("text/*", "text/html; charset=utf-8"), ("application/json;q=0.5, text/html", "text/html; charset=utf-8"),
            ("text/html;q=0.1, application/json;q=0.2", "application/json"),
        ] as [(String?, String)])
    func acceptChoosesTheRepresentation(accept: String?, contentType: String) async throws {
        let api = await Self.api()
        var bearer = API.bearer(try await api.riderToken(7))
        if let accept { bearer[.accept] = accept }
        let headers = bearer
        try await api.test { client in
            let id = try await record(client, api)
            try await client.execute(uri: "/v1/riders/7/trips/\(id)/receipt", method: .get, headers: headers) {
                #expect($0.status == .ok)
                #expect($0.headers[.contentType] == contentType)
            }
        }
    }

    @Test(arguments: ["application/xml", "text/csv", "image/*", "application/json;q=0, text/html;q=0"])
    func anotherAcceptIsNotAcceptable(accept: String) async throws {
        let api = await Self.api()
        let headers = API.bearer(try await api.riderToken(7)).merging([.accept: accept])
        try await api.test { client in
            let id = try await record(client, api)
            try await client.execute(uri: "/v1/riders/7/trips/\(id)/receipt", method: .get, headers: headers) {
                response in
                #expect(response.status == .notAcceptable)
                #expect(response.headers[.contentType] == "application/problem+json")
                #expect(response.json().string("code") == "not_acceptable")
                #expect(response.json().string("param") == "Accept")
            }
        }
    }

    @Test func theRiderAnalystsAndServicesReadAReceiptAndNoOneElse() async throws {
        let api = await Self.api()
        try await api.test { client in
            let id = try await record(client, api)
            let owner = API.bearer(try await api.riderToken(7))
            let other = API.bearer(try await api.riderToken(8))
            let cases: [(String, HTTPFields, HTTPResponse.Status)] = [
                ("/v1/riders/7/trips/\(id)/receipt", owner, .ok),
                ("/v1/riders/7/trips/\(id)/receipt", API.bearer(try await api.analystToken()), .ok),
                ("/v1/riders/7/trips/\(id)/receipt", other, .notFound),
                // Their own rider id with another rider's trip: a missing trip, like any other.
                ("/v1/riders/8/trips/\(id)/receipt", other, .notFound),
                ("/v1/riders/7/trips/999/receipt", owner, .notFound),
                ("/v1/riders/7/trips/\(id)/receipt", API.bearer(try await api.serviceToken()), .ok),
                ("/v1/riders/7/trips/\(id)/receipt", API.bearer(try await api.privacyToken()), .forbidden),
                ("/v1/riders/7/trips/\(id)/receipt", [:], .unauthorized),
                ("/v1/riders/7/trips/x/receipt", owner, .badRequest),
            ]
            for (uri, headers, status) in cases {
                try await client.execute(uri: uri, method: .get, headers: headers) {
                    #expect($0.status == status, "\(uri)")
                    if status != .ok { #expect($0.headers[.contentType] == "application/problem+json") }
                }
            }
            // Another rider learns nothing from the Accept header either.
            try await client.execute(
                uri: "/v1/riders/7/trips/\(id)/receipt", method: .get, headers: other.merging([.accept: "text/csv"])
            ) { #expect($0.status == .notFound) }
            try await client.execute(uri: "/v1/riders/7/trips/\(id)/receipt", method: .post, headers: owner) {
                #expect($0.status == .methodNotAllowed)
            }
        }
    }

    @Test func aReceiptRevalidatesWith304AndChangesWithTheTrip() async throws {
        let cache = TripResponseCache()
        let api = await Self.api(cache: cache)
        let rider = API.bearer(try await api.riderToken(7))
        let html = rider.merging([.accept: "text/html"])
        try await api.test { client in
            let id = try await record(client, api)
            let uri = "/v1/riders/7/trips/\(id)/receipt"
            let (jsonTag, jsonBody) = try await client.execute(uri: uri, method: .get, headers: rider) {
                (try #require($0.headers[.eTag]), $0.body)
            }
            #expect(jsonTag.hasPrefix("\"") && !jsonTag.hasPrefix("\"v"))
            let htmlTag = try await client.execute(uri: uri, method: .get, headers: html) {
                try #require($0.headers[.eTag])
            }
            #expect(htmlTag != jsonTag)
            try await client.execute(uri: uri, method: .get, headers: rider.merging([.ifNoneMatch: jsonTag])) {
                response in
                #expect(response.status == .notModified)
                #expect(response.body.readableBytes == 0)
                #expect(response.headers[.eTag] == jsonTag)
                #expect(response.headers[.contentType] == nil)
                #expect(response.headers[.vary] == "Authorization, Accept, Accept-Language")
                #expect(response.headers[.contentLanguage] == "en-US")
            }
            try await client.execute(uri: uri, method: .get, headers: html.merging([.ifNoneMatch: htmlTag])) {
                #expect($0.status == .notModified)
            }
            // One representation's tag does not revalidate the other, nor another language.
            try await client.execute(uri: uri, method: .get, headers: html.merging([.ifNoneMatch: jsonTag])) {
                #expect($0.status == .ok)
                #expect($0.headers[.eTag] == htmlTag)
            }
            try await client.execute(
                uri: uri, method: .get, headers: rider.merging([.ifNoneMatch: jsonTag, .acceptLanguage: "de-DE"])
            ) { #expect($0.status == .ok) }
            // Served from the cache: the same bytes, a hit.
            try await client.execute(uri: uri, method: .get, headers: rider) {
                #expect($0.body == jsonBody)
                #expect($0.headers[HTTPField.Name("Server-Timing")!] == "cache;desc=hit")
            }
            // A tip invalidates the rider's entries: the cached receipt is not served, its tag no longer matches.
            try await tip(client, api, trip: id, 300)
            try await client.execute(uri: uri, method: .get, headers: rider.merging([.ifNoneMatch: jsonTag])) {
                response in
                #expect(response.status == .ok)
                #expect(response.json()["total.amount_minor"] as? Int == 1800)
                #expect(response.headers[.eTag] != jsonTag)
            }
            try await client.execute(uri: uri, method: .get, headers: html.merging([.ifNoneMatch: htmlTag])) {
                #expect($0.status == .ok)
                #expect(String(buffer: $0.body).contains("¥1,800"))
            }
        }
    }
}
