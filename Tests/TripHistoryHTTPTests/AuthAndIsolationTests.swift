import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing
import TripHistoryAPI
import TripHistoryDomain
import TripHistoryFakes
import TripHistoryHTTP
import TripHistoryTestSupport

@Suite struct AuthAndIsolationTests {
    let trips = TripFixtures.history(riderID: 1, count: 3) + TripFixtures.history(riderID: 2, count: 3, firstID: 100)

    @Test func missingMalformedForgedAndExpiredTokensGet401() async throws {
        let api = await TestAPI(repository: InMemoryTripRepository(trips: trips))
        let forger = await AccessTokens(secret: Array("another-secret-that-is-also-32-bytes-long".utf8))
        let forged = try await forger.issue(role: .analyst, subject: "x", timeToLive: .seconds(600))
        let expired = try await api.tokens.issue(
            role: .rider, subject: "1", timeToLive: .seconds(60), now: Date().addingTimeInterval(-3600)
        )
        let valid = try await api.riderToken(1)
        let unsigned = valid.split(separator: ".").prefix(2).joined(separator: ".") + "."
        let headerSets: [HTTPFields] = [
            [:], [.authorization: "Bearer"], [.authorization: "Basic dXNlcjpwYXNz"],
            [.authorization: "Bearer abc.def.ghi"],
            [.authorization: "Bearer \(forged)"], [.authorization: "Bearer \(expired)"],
            [.authorization: "Bearer \(unsigned)"],
        ]
        try await api.test { client in
            for headers in headerSets {
                try await client.execute(uri: "/v1/riders/1/trips", method: .get, headers: headers) { response in
                    #expect(response.status == .unauthorized)
                    #expect(response.headers[.wwwAuthenticate]?.hasPrefix("Bearer") == true)
                    #expect(response.json().string("code") == "unauthorized")
                }
            }
        }
    }

    @Test func aRiderCannotTellAnotherRidersTripsFromMissingOnes() async throws {
        let api = await TestAPI(repository: InMemoryTripRepository(trips: trips))
        let rider1 = TestAPI<InMemoryTripRepository>.bearer(try await api.riderToken(1))
        try await api.test { client in
            var bodies: [String: [String: Any]] = [:]
            for uri in [
                "/v1/riders/2/trips", "/v1/riders/2/trips/100", "/v1/riders/1/trips/100", "/v1/riders/1/trips/999",
            ] {
                try await client.execute(uri: uri, method: .get, headers: rider1) { response in
                    #expect(response.status == .notFound, "\(uri)")
                    var object = response.json().object
                    object["request_id"] = nil
                    bodies[uri] = object
                }
            }
            let distinct = Set(bodies.values.map { NSDictionary(dictionary: $0) })
            #expect(distinct.count == 1)
            try await client.execute(uri: "/v1/riders/1/trips/2", method: .get, headers: rider1) { response in
                #expect(response.status == .ok)
                #expect(response.json().string("id") == "2")
            }
        }
    }

    /// A service lists, exports and follows no rider's trips, but reads the one trip it adjusts, with the tag
    /// it sends back in `If-Match`.
    @Test func analystsReadAnyRiderAndServicesReadOnlyTheTripTheyAdjust() async throws {
        let api = await TestAPI(repository: InMemoryTripRepository(trips: trips))
        let analyst = TestAPI<InMemoryTripRepository>.bearer(try await api.analystToken())
        let service = TestAPI<InMemoryTripRepository>.bearer(try await api.serviceToken())
        let rider = TestAPI<InMemoryTripRepository>.bearer(try await api.riderToken(1))
        try await api.test { client in
            try await client.execute(uri: "/v1/riders/2/trips", method: .get, headers: analyst) { response in
                #expect(response.status == .ok)
                #expect(response.json().tripIDs == ["102", "101", "100"])
            }
            for uri in [
                "/v1/riders/2/trips", "/v1/riders/2/trips/changes", "/v1/riders/2/trips/export?format=csv",
            ] {
                try await client.execute(uri: uri, method: .get, headers: service) { response in
                    #expect(response.status == .forbidden, "\(uri)")
                    #expect(response.json().string("code") == "forbidden")
                }
            }
            try await client.execute(uri: "/v1/riders/2/trips/100", method: .get, headers: service) { response in
                #expect(response.status == .ok)
                #expect(response.json().string("id") == "100")
                #expect(response.headers[.eTag]?.hasPrefix("\"v1.") == true)
            }
            for headers in [analyst, rider] {
                try await client.execute(
                    uri: "/v1/trips", method: .post, headers: headers.merging([.contentType: "application/json"]),
                    body: .init(string: "{}")
                ) { response in
                    #expect(response.status == .forbidden)
                }
            }
        }
    }
}
