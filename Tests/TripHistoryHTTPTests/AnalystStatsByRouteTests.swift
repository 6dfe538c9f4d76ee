import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing
import TripHistoryDomain
import TripHistoryFakes
import TripHistoryTestSupport

@testable import TripHistoryAPI

/// `GET /v1/trips/stats` with and without `by`: without it the body is exactly the one clients read before
/// `by` existed; with it each bucket names its city or product and the response echoes `by`.
@Suite struct AnalystStatsByRouteTests {
    typealias API = TestAPI<InMemoryTripRepository>
    static let window = "from=2026-01-01&to=2026-03-01"

    private func api() async -> API {
        let start = InMemoryAnalystFixtures.start
        let new = [
            InMemoryAnalystFixtures.newTrip(
                rider: 1, city: "Paris", product: "UberX", requestedAt: start.addingTimeInterval(3600), fare: 1000,
                distance: 100, duration: 600),
            InMemoryAnalystFixtures.newTrip(
                rider: 2, city: "Paris", product: "Comfort", requestedAt: start.addingTimeInterval(7200),
                currency: "USD", fare: 250, distance: 50, duration: 300),
            InMemoryAnalystFixtures.newTrip(
                rider: 3, city: "Lyon", product: "UberX", status: .canceled,
                requestedAt: start.addingTimeInterval(9000),
                fare: 500, distance: 0),
        ]
        let trips = new.enumerated().map { index, trip in
            Trip(
                id: TripID(Int64(index + 1))!, riderID: trip.riderID, details: trip.details,
                lifecycle: .recorded(at: trip.details.requestedAt))
        }
        return await TestAPI(
            repository: InMemoryTripRepository(trips: trips),
            analystRepository: InMemoryAnalystTripRepository(trips: trips))
    }

    @Test func withoutByTheBodyIsTheOneBeforeByExisted() async throws {
        let api = await api()
        let headers = API.bearer(try await api.analystToken())
        try await api.test { client in
            try await client.execute(
                uri: "/v1/trips/stats?\(Self.window)&city=Paris", method: .get, headers: headers
            ) { response in
                #expect(response.status == .ok)
                let expected =
                    #"{"data":[{"bucket_start":"2026-01-01T00:00:00.000000Z","trips":2,"completed":2,"canceled":0,"#
                    + #""total_fare_minor":{"EUR":1000,"USD":250},"total_tips_minor":{"EUR":0,"USD":0},"#
                    + #""total_refunds_minor":{"EUR":0,"USD":0},"total_distance_m":150,"mean_duration_s":450.0}],"#
                    + #""group_by":"day","tz":"UTC","filter":{"from":"2026-01-01T00:00:00.000000Z","#
                    + #""to":"2026-03-01T00:00:00.000000Z","tz":null,"status":null,"city":"Paris","product":null,"#
                    + #""rider_id":null}}"#
                #expect(String(buffer: response.body) == expected)
            }
        }
    }

    @Test func byNamesEachBucketsValueAndIsEchoed() async throws {
        let api = await api()
        let headers = API.bearer(try await api.analystToken())
        try await api.test { client in
            try await client.execute(
                uri: "/v1/trips/stats?\(Self.window)&by=city", method: .get, headers: headers
            ) { response in
                #expect(response.status == .ok)
                let json = response.json()
                let data = json["data"] as? [[String: Any]] ?? []
                #expect(data.map { $0["city"] as? String } == ["Lyon", "Paris"])
                #expect(data.allSatisfy { $0["product"] == nil })
                #expect(data.map { $0["trips"] as? Int } == [1, 2])
                #expect(data.map { $0["canceled"] as? Int } == [1, 0])
                #expect(data.last?["total_fare_minor"] as? [String: Int] == ["EUR": 1000, "USD": 250])
                #expect(json.string("by") == "city")
                #expect(json.string("group_by") == "day")
            }
            // The city filter narrows the trips first; `by=product` then splits Paris's.
            try await client.execute(
                uri: "/v1/trips/stats?\(Self.window)&city=Paris&by=product", method: .get, headers: headers
            ) { response in
                let json = response.json()
                let data = json["data"] as? [[String: Any]] ?? []
                #expect(data.map { $0["product"] as? String } == ["Comfort", "UberX"])
                #expect(data.map { $0["total_fare_minor"] as? [String: Int] } == [["USD": 250], ["EUR": 1000]])
                #expect(data.allSatisfy { $0["city"] == nil })
                #expect(json.string("by") == "product")
            }
            try await client.execute(
                uri: "/v1/trips/stats?\(Self.window)&by=region", method: .get, headers: headers
            ) { response in
                #expect(response.status == .badRequest)
                #expect(response.json().string("param") == "by")
            }
        }
    }
}
