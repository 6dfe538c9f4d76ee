import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing
import TripHistoryAPI
import TripHistoryApp
import TripHistoryCache
import TripHistoryDomain
import TripHistoryFakes
import TripHistoryHTTP
import TripHistoryTestSupport

/// `DELETE /v1/riders/{rider_id}` through the router and the early-read handler, over the in-memory repository.
@Suite struct RiderErasureRouteTests {
    typealias API = TestAPI<InMemoryTripRepository>

    @Test func onlyThePrivacyRoleErasesAndEveryRiderGetsTheSameAnswer() async throws {
        let repository = InMemoryTripRepository()
        let api = await API(repository: repository)
        let service = try await api.recordHeaders()
        let privacy = API.bearer(try await api.privacyToken())
        try await api.test { client in
            try await client.execute(
                uri: "/v1/trips", method: .post, headers: service, body: RecordTripRouteTests.body()
            ) { #expect($0.status == .created) }
            // Every other role is refused before the path is looked at, a missing token is a 401.
            for token in [
                try await api.riderToken(7), try await api.analystToken(), try await api.serviceToken(),
            ] {
                for path in ["/v1/riders/7", "/v1/riders/abc"] {
                    try await client.execute(uri: path, method: .delete, headers: API.bearer(token)) { response in
                        #expect(response.status == .forbidden)
                        #expect(response.json().string("code") == "forbidden")
                    }
                }
            }
            try await client.execute(uri: "/v1/riders/7", method: .delete) { #expect($0.status == .unauthorized) }
            #expect(repository.allTrips.count == 1)
            try await client.execute(uri: "/v1/riders/abc", method: .delete, headers: privacy) { response in
                #expect(response.status == .badRequest)
                #expect(response.json().string("param") == "rider_id")
            }
            // The rider with trips, the same again, and a rider never seen: 204 each, with nothing to tell apart.
            for path in ["/v1/riders/7", "/v1/riders/7", "/v1/riders/424242"] {
                try await client.execute(uri: path, method: .delete, headers: privacy) { response in
                    #expect(response.status == .noContent)
                    #expect(response.body.readableBytes == 0)
                    #expect(response.headers[.cacheControl] == "no-store")
                }
            }
            #expect(repository.allTrips.isEmpty)
            // The privacy role reads nothing, and the path takes no other method.
            try await client.execute(uri: "/v1/riders/7/trips", method: .get, headers: privacy) {
                #expect($0.status == .forbidden)
            }
            try await client.execute(uri: "/v1/riders/7", method: .get, headers: privacy) { response in
                #expect(response.status == .methodNotAllowed)
                #expect(response.headers[.allow] == "DELETE")
            }
        }
    }

    /// Cached lists, details and receipts of the rider are gone the moment the 204 is sent, on the router and
    /// the early-read path alike; the erased history cannot be recorded again, even under its old key.
    @Test func afterTheAnswerNoCachedCopyIsServedAndTheOldHistoryCannotComeBack() async throws {
        let repository = InMemoryTripRepository()
        let api = await API(
            repository: repository,
            settings: {
                $0.cache = TripResponseCache()
            })
        let rider = API.bearer(try await api.riderToken(7))
        let analyst = API.bearer(try await api.analystToken())
        let service = try await api.recordHeaders(idempotencyKey: "ride-1")
        try await api.testLive { client in
            let id = try await client.execute(
                uri: "/v1/trips", method: .post, headers: service,
                body: TripLifecycleRouteTests.tripBody()
            ) { response in
                #expect(response.status == .created)
                return try #require(response.json().string("id"))
            }
            let reads = [
                "/v1/riders/7/trips", "/v1/riders/7/trips/\(id)", "/v1/riders/7/trips/\(id)/receipt",
            ]
            for uri in reads {
                for headers in [rider, analyst] {
                    // Twice: the second is a cache hit.
                    for _ in 0..<2 {
                        try await client.execute(uri: uri, method: .get, headers: headers) {
                            #expect($0.status == .ok)
                            #expect(String(buffer: $0.body).contains("Prius") || uri == reads[0])
                        }
                    }
                }
            }
            try await client.execute(
                uri: "/v1/riders/7", method: .delete, headers: API.bearer(try await api.privacyToken())
            ) { #expect($0.status == .noContent) }
            try await client.execute(uri: reads[0], method: .get, headers: rider) { response in
                #expect(response.status == .ok)
                #expect((response.json()["data"] as? [Any])?.isEmpty == true)
            }
            for uri in reads.dropFirst() {
                for headers in [rider, analyst] {
                    try await client.execute(uri: uri, method: .get, headers: headers) {
                        #expect($0.status == .notFound)
                        #expect(!String(buffer: $0.body).contains("Prius"))
                    }
                }
            }
            // The retry of the erased trip under its key is refused, naming the field.
            try await client.execute(
                uri: "/v1/trips", method: .post, headers: service, body: TripLifecycleRouteTests.tripBody()
            ) { response in
                #expect(response.status == .unprocessableContent)
                #expect(response.json().string("code") == "rider_erased")
                #expect(response.json().string("param") == "requested_at")
            }
        }
        #expect(repository.allTrips.isEmpty)
    }
}
