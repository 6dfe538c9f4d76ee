import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Prometheus
import Testing
import TripHistoryApp
import TripHistoryCache
import TripHistoryDomain
import TripHistoryFakes
import TripHistoryHTTP
import TripHistoryTestSupport

@testable import TripHistoryAPI

/// The response cache and conditional requests of the rider routes, over the in-memory repository.
@Suite struct ResponseCacheRouteTests {
    typealias API = TestAPI<InMemoryTripRepository>

    private static let serverTiming = HTTPField.Name("Server-Timing")!

    private static func cachedAPI(
        _ repository: InMemoryTripRepository, registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()
    ) async -> API {
        let cache = TripResponseCache(metricsFactory: PrometheusMetricsFactory(registry: registry))
        return await TestAPI(
            repository: repository, metrics: { registry.emitToBuffer() },
            settings: {
                $0.cache = cache
            })
    }

    private static func headers(_ token: String, _ extra: HTTPFields = [:]) -> HTTPFields {
        var headers = API.bearer(token)
        headers.append(contentsOf: extra)
        return headers
    }

    private static func postBody(rider: Int64, minute: Int) -> ByteBuffer {
        let time = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: 1_772_400_000 + Double(minute) * 60))
        return ByteBuffer(string: TripFixtures.recordBody(rider: rider, requestedAt: time))
    }

    @Test func responsesCarryAnETagAndServerTimingAndTheSecondReadIsAHit() async throws {
        let repository = InMemoryTripRepository(trips: TripFixtures.history(riderID: 1, count: 5))
        let api = await Self.cachedAPI(repository)
        let owner = API.bearer(try await api.riderToken(1))
        try await api.test { client in
            for uri in ["/v1/riders/1/trips", "/v1/riders/1/trips/3"] {
                let first = try await client.execute(uri: uri, method: .get, headers: owner) { response in
                    #expect(response.status == .ok)
                    let timing = response.headers[Self.serverTiming] ?? ""
                    #expect(
                        timing.contains("cache;desc=miss") && timing.contains("db;dur=")
                            && timing.contains("encode;dur="))
                    return (try #require(response.headers[.eTag]), response.body)
                }
                #expect(first.0.hasPrefix("\"") && first.0.hasSuffix("\"") && first.0.count > 2)
                // The tag is derived from the bytes sent: their 128-bit MurmurHash3 (checked against the
                // reference's vectors in EntityTagTests) in base64url, after the trip's version for a single trip.
                let digest = Data(first.1.withUnsafeReadableBytes { Murmur3.hash128($0) }).base64EncodedString()
                let base64URL = digest.replacingOccurrences(of: "+", with: "-")
                    .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
                #expect(first.0 == (uri.hasSuffix("/3") ? "\"v1.\(base64URL)\"" : "\"\(base64URL)\""))
                let queries = repository.queryCount
                try await client.execute(uri: uri, method: .get, headers: owner) { response in
                    #expect(response.status == .ok)
                    #expect(response.headers[.eTag] == first.0)
                    #expect(response.body == first.1)
                    #expect(response.headers[Self.serverTiming] == "cache;desc=hit")
                }
                #expect(repository.queryCount == queries)
            }
        }
    }

    @Test func aMatchingTagGets304FromAWarmCacheWithoutQuerying() async throws {
        let repository = InMemoryTripRepository(trips: TripFixtures.history(riderID: 1, count: 5))
        let api = await Self.cachedAPI(repository)
        let owner = API.bearer(try await api.riderToken(1))
        try await api.test { client in
            let tag = try await client.execute(uri: "/v1/riders/1/trips", method: .get, headers: owner) {
                try #require($0.headers[.eTag])
            }
            let queries = repository.queryCount
            for ifNoneMatch in [tag, "\"other\", W/\(tag)", "*", "\"a\",\(tag)"] {
                try await client.execute(
                    uri: "/v1/riders/1/trips", method: .get,
                    headers: Self.headers(try await api.riderToken(1), [.ifNoneMatch: ifNoneMatch])
                ) { response in
                    #expect(response.status == .notModified, "\(ifNoneMatch)")
                    #expect(response.body.readableBytes == 0)
                    #expect(response.headers[.eTag] == tag)
                    #expect(response.headers[.cacheControl] == "private, no-cache")
                    #expect(response.headers[.vary] == "Authorization, Accept-Language")
                }
            }
            #expect(repository.queryCount == queries)
            try await client.execute(
                uri: "/v1/riders/1/trips", method: .get,
                headers: Self.headers(try await api.riderToken(1), [.ifNoneMatch: "\"stale\""])
            ) { response in
                #expect(response.status == .ok)
                #expect(response.json().tripIDs.count == 5)
            }
        }
    }

    @Test(arguments: [true, false])
    func aMatchingTagGets304WhenColdOnAFreshInstance(cached: Bool) async throws {
        let repository = InMemoryTripRepository(trips: TripFixtures.history(riderID: 1, count: 5))
        let first = await Self.cachedAPI(repository)
        let owner = API.bearer(try await first.riderToken(1))
        let tags = try await first.test { client in
            var tags: [String] = []
            for uri in ["/v1/riders/1/trips", "/v1/riders/1/trips/2"] {
                tags.append(
                    try await client.execute(uri: uri, method: .get, headers: owner) { try #require($0.headers[.eTag]) }
                )
            }
            return tags
        }
        let second = cached ? await Self.cachedAPI(repository) : await TestAPI(repository: repository)
        try await second.test { client in
            for (uri, tag) in zip(["/v1/riders/1/trips", "/v1/riders/1/trips/2"], tags) {
                let queries = repository.queryCount
                try await client.execute(
                    uri: uri, method: .get, headers: Self.headers(try await second.riderToken(1), [.ifNoneMatch: tag])
                ) {
                    #expect($0.status == .notModified)
                    #expect($0.headers[.eTag] == tag)
                }
                #expect(repository.queryCount == queries + 1)
            }
        }
    }

    @Test func ridersNeverGetEachOthersBytesAndAnAnalystHasItsOwnEntries() async throws {
        let trips =
            TripFixtures.history(riderID: 1, count: 4) + TripFixtures.history(riderID: 2, count: 3, firstID: 100)
        let repository = InMemoryTripRepository(trips: trips)
        let api = await Self.cachedAPI(repository)
        let one = API.bearer(try await api.riderToken(1))
        let two = API.bearer(try await api.riderToken(2))
        let analyst = API.bearer(try await api.analystToken())
        try await api.test { client in
            for _ in 0..<2 {
                try await client.execute(uri: "/v1/riders/1/trips", method: .get, headers: one) {
                    #expect(Set($0.json().tripIDs) == Set(["1", "2", "3", "4"]))
                }
                try await client.execute(uri: "/v1/riders/2/trips", method: .get, headers: two) {
                    #expect(Set($0.json().tripIDs) == Set(["100", "101", "102"]))
                }
                try await client.execute(uri: "/v1/riders/1/trips/2", method: .get, headers: one) {
                    #expect($0.status == .ok)
                }
            }
            // Warm entries of rider 1 are refused to rider 2, with or without a matching tag.
            for uri in ["/v1/riders/1/trips", "/v1/riders/1/trips/2"] {
                try await client.execute(uri: uri, method: .get, headers: two) { #expect($0.status == .notFound) }
                try await client.execute(
                    uri: uri, method: .get, headers: Self.headers(try await api.riderToken(2), [.ifNoneMatch: "*"])
                ) {
                    #expect($0.status == .notFound)
                }
            }
            try await client.execute(
                uri: "/v1/riders/1/trips", method: .get, headers: API.bearer(try await api.serviceToken())
            ) {
                #expect($0.status == .forbidden)
            }
            // The analyst's first read of the same URL is computed for the analyst, not taken from the rider.
            let queries = repository.queryCount
            try await client.execute(uri: "/v1/riders/1/trips", method: .get, headers: analyst) {
                #expect($0.status == .ok)
                #expect(Set($0.json().tripIDs) == Set(["1", "2", "3", "4"]))
                // No Server-Timing to anyone but the rider: a hit would tell who else read this page.
                #expect($0.headers[Self.serverTiming] == nil)
            }
            #expect(repository.queryCount == queries + 1)
            try await client.execute(uri: "/v1/riders/1/trips", method: .get, headers: analyst) {
                #expect($0.status == .ok)
                #expect($0.headers[Self.serverTiming] == nil)
            }
            #expect(repository.queryCount == queries + 1, "the analyst's second read is a hit")
        }
    }

    @Test func everyReadAfterAWriteIncludesIt() async throws {
        let repository = InMemoryTripRepository()
        let api = await Self.cachedAPI(repository)
        let service: HTTPFields = Self.headers(try await api.serviceToken(), [.contentType: "application/json"])
        let owner = API.bearer(try await api.riderToken(9))
        try await api.test { client in
            var stale = 0
            var hits = 0
            for minute in 0..<1_000 {
                let id = try await client.execute(
                    uri: "/v1/trips", method: .post, headers: service, body: Self.postBody(rider: 9, minute: minute)
                ) { try #require($0.json().string("id")) }
                for _ in 0..<2 {
                    try await client.execute(uri: "/v1/riders/9/trips?limit=3", method: .get, headers: owner) {
                        response in
                        if response.json().tripIDs.first != id { stale += 1 }
                        if response.headers[Self.serverTiming] == "cache;desc=hit" { hits += 1 }
                    }
                }
                try await client.execute(uri: "/v1/riders/9/trips/\(id)", method: .get, headers: owner) {
                    if $0.status != .ok { stale += 1 }
                }
            }
            #expect(stale == 0)
            // Each write is followed by one miss and one hit, so the cache really was in the way.
            #expect(hits == 1_000)
        }
    }

    @Test func bodiesAndHeadersAreTheSameWithTheCacheOff() async throws {
        let repository = InMemoryTripRepository(trips: TripFixtures.history(riderID: 1, count: 40))
        let cached = await Self.cachedAPI(repository)
        let plain = await TestAPI(repository: repository)
        let analyst = try await cached.analystToken()
        let rider = try await cached.riderToken(1)
        let cursor = try await cached.test { client in
            try await client.execute(uri: "/v1/riders/1/trips?limit=7", method: .get, headers: API.bearer(rider)) {
                try #require($0.json().string("page.next_cursor"))
            }
        }
        let uris = [
            "/v1/riders/1/trips", "/v1/riders/1/trips?limit=7", "/v1/riders/1/trips?limit=7&cursor=\(cursor)",
            "/v1/riders/1/trips?status=canceled", "/v1/riders/1/trips?from=2023-11-14&to=2023-11-16&tz=Asia/Tokyo",
            "/v1/riders/1/trips/3", "/v1/riders/1/trips/3?tz=Europe/Paris", "/v1/riders/1/trips/999",
            "/v1/riders/2/trips", "/v1/riders/1/trips?cursor=bogus",
        ]
        for token in [rider, analyst] {
            for language in ["fr-FR", "ja-JP", "en-US"] {
                // A fixed request id, so problem bodies (which echo it) are comparable too.
                let headers = Self.headers(
                    token, [.acceptLanguage: language, HTTPField.Name("X-Request-ID")!: "cache-comparison"]
                )
                for uri in uris {
                    let expected = try await plain.test { client in
                        try await client.execute(uri: uri, method: .get, headers: headers) {
                            ($0.status, $0.body, Self.comparable($0.headers))
                        }
                    }
                    for _ in 0..<2 {
                        let actual = try await cached.test { client in
                            try await client.execute(uri: uri, method: .get, headers: headers) {
                                ($0.status, $0.body, Self.comparable($0.headers))
                            }
                        }
                        #expect(actual.0 == expected.0, "\(uri)")
                        #expect(actual.1 == expected.1, "\(uri)")
                        #expect(actual.2 == expected.2, "\(uri)")
                    }
                }
            }
        }
    }

    /// Headers that must not depend on the cache: all but Server-Timing and the per-response request id.
    private static func comparable(_ headers: HTTPFields) -> [String] {
        headers.filter { $0.name != serverTiming && $0.name.canonicalName != "x-request-id" && $0.name != .date }
            .map { "\($0.name.canonicalName): \($0.value)" }
            .sorted()
    }

    @Test func metricsExposeTheCacheCountersWithoutATokenOnTheirOwnListenerOnly() async throws {
        let registry = PrometheusCollectorRegistry()
        let repository = InMemoryTripRepository(trips: TripFixtures.history(riderID: 1, count: 3))
        let api = await Self.cachedAPI(repository, registry: registry)
        let owner = API.bearer(try await api.riderToken(1))
        try await api.test { client in
            for _ in 0..<2 {
                try await client.execute(uri: "/v1/riders/1/trips", method: .get, headers: owner) {
                    #expect($0.status == .ok)
                }
            }
            // Not on the API's port, with or without a token.
            for headers in [[:], owner] {
                try await client.execute(uri: "/metrics", method: .get, headers: headers) { response in
                    #expect(response.status == .notFound)
                    #expect(response.headers[.contentType] == "application/problem+json")
                }
            }
        }
        try await api.testMetrics { client in
            try await client.execute(uri: "/metrics", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType]?.hasPrefix("text/plain") == true)
                #expect(response.headers[.cacheControl] == "no-store")
                let text = String(buffer: response.body)
                let list = #"cache="responses",route="/v1/riders/{rider_id}/trips""#
                #expect(text.contains("trip_history_cache_hits_total{\(list)} 1"), "\(text)")
                #expect(text.contains("trip_history_cache_misses_total{\(list)} 1"))
                #expect(text.contains("# TYPE trip_history_cache_bytes gauge"))
            }
            try await client.execute(uri: "/metrics", method: .post) { response in
                #expect(response.status == .methodNotAllowed)
                #expect(response.headers[.allow] == "GET")
            }
            // The listener serves the scrape and nothing of the API.
            try await client.execute(uri: "/v1/riders/1/trips", method: .get, headers: owner) { response in
                #expect(response.status == .notFound)
                #expect(response.json().string("code") == "not_found")
            }
        }
    }
}
