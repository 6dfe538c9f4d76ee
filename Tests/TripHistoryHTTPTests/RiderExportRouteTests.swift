import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import NIOFoundationEssentialsCompat
import Testing
import TripHistoryAPI
import TripHistoryApp
import TripHistoryDomain
import TripHistoryFakes
import TripHistoryHTTP
import TripHistoryTestSupport

/// `GET /v1/riders/{rider_id}/trips/export` through the router, over the in-memory repository.
@Suite struct RiderExportRouteTests {
    typealias API = TestAPI<InMemoryTripRepository>

    /// Two trips of rider 7 (the newer one corrected, with a reason a spreadsheet would run as a formula) and one
    /// of rider 8; returns rider 7's ids, newest first.
    private func history(_ client: some TestClientProtocol, _ api: API) async throws -> [String] {
        let service = try await api.recordHeaders()
        var ids: [String] = []
        for (rider, requestedAt) in [
            (7, "2026-03-01T09:00:00+09:00"), (8, "2026-03-02T09:00:00+09:00"),
            (7, "2026-03-03T09:00:00+09:00"),
        ] {
            let body = TripLifecycleRouteTests.tripBody(extra: [
                "rider_id": String(rider), "requested_at": requestedAt, "started_at": requestedAt,
                "completed_at": requestedAt,
            ])
            let id = try await client.execute(uri: "/v1/trips", method: .post, headers: service, body: body) {
                #expect($0.status == .created)
                return try #require($0.json().string("id"))
            }
            if rider == 7 { ids.insert(id, at: 0) }
        }
        try await client.execute(
            uri: "/v1/riders/7/trips/\(ids[0])/adjustments", method: .post, headers: service,
            body: TripLifecycleRouteTests.adjustmentBody("fare_correction", 200, reason: "x,=HYPERLINK(1)")
        ) { #expect($0.status == .created) }
        return ids
    }

    /// Each NDJSON line is the trip exactly as its detail route answers it; each CSV record holds the
    /// receipt's parts and the ledger, with text cells defused.
    @Test func theExportHoldsEveryTripOfTheRiderAsTheDetailShowsIt() async throws {
        let api = await API(repository: InMemoryTripRepository())
        let rider = API.bearer(try await api.riderToken(7))
        try await api.test { client in
            let ids = try await history(client, api)
            var details: [NSDictionary] = []
            for id in ids {
                details.append(
                    try await client.execute(uri: "/v1/riders/7/trips/\(id)", method: .get, headers: rider) {
                        try JSONSerialization.jsonObject(with: Data(buffer: $0.body)) as! NSDictionary
                    })
            }
            try await client.execute(uri: "/v1/riders/7/trips/export?format=ndjson", method: .get, headers: rider) {
                response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/x-ndjson")
                #expect(response.headers[.contentDisposition] == #"attachment; filename="trips-7.ndjson""#)
                let lines = String(buffer: response.body).split(separator: "\n")
                let objects = try lines.map {
                    try JSONSerialization.jsonObject(with: Data($0.utf8)) as! NSDictionary
                }
                #expect(objects == details)
                #expect((objects.first?["adjustments"] as? [Any])?.count == 1)
                #expect((objects.first?["payment"] as? [String: Any])?["last4"] as? String == "4242")
            }
            try await client.execute(uri: "/v1/riders/7/trips/export?format=csv", method: .get, headers: rider) {
                response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/csv; charset=utf-8; header=present")
                let table = parseCSV(String(buffer: response.body))
                let header = try #require(table.first)
                #expect(header.last == "adjustments" && header.contains("vehicle_plate"))
                let rows = table.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(header, $0)) }
                #expect(rows.map { $0["id"] } == ids)
                #expect(rows.first?["corrections_minor"] == "200")
                #expect(rows.first?["payment_last4"] == "4242")
                #expect(rows.first?["vehicle_plate"] == "品川 300 あ 12-34")
                // A JSON cell with a part a spreadsheet splitting on commas would run is shown as text.
                let adjustments = try #require(rows.first?["adjustments"])
                #expect(adjustments.hasPrefix("'[{"), "\(adjustments)")
                #expect(adjustments.contains(#""reason":"x,=HYPERLINK(1)""#))
                let breakdown = try #require(rows.last?["fare_breakdown"])
                #expect(breakdown.contains(#""kind":"base","amount_minor":1000"#))
            }
            // The raw CSV holds the same rows with every cell as stored: the ledger's JSON parses as it is.
            try await client.execute(uri: "/v1/riders/7/trips/export?format=csv_raw", method: .get, headers: rider) {
                response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/csv; charset=utf-8; header=present")
                let table = parseCSV(String(buffer: response.body))
                let header = try #require(table.first)
                let rows = table.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(header, $0)) }
                #expect(rows.map { $0["id"] } == ids)
                let adjustments = try #require(rows.first?["adjustments"])
                let ledger = try JSONSerialization.jsonObject(with: Data(adjustments.utf8)) as? [[String: Any]]
                #expect(ledger?.first?["reason"] as? String == "x,=HYPERLINK(1)")
            }
        }
    }

    @Test func theRiderExportsTheirOwnAnalystsAnyoneAndOtherRolesNothing() async throws {
        let api = await API(repository: InMemoryTripRepository())
        try await api.test { client in
            _ = try await history(client, api)
            let uri = "/v1/riders/7/trips/export?format=ndjson"
            try await client.execute(uri: uri, method: .get, headers: API.bearer(try await api.analystToken())) {
                #expect($0.status == .ok)
                #expect(String(buffer: $0.body).split(separator: "\n").count == 2)
            }
            try await client.execute(uri: uri, method: .get, headers: API.bearer(try await api.riderToken(8))) {
                #expect($0.status == .notFound)
            }
            for token in [try await api.serviceToken(), try await api.privacyToken()] {
                try await client.execute(uri: uri, method: .get, headers: API.bearer(token)) {
                    #expect($0.status == .forbidden)
                }
            }
            try await client.execute(uri: uri, method: .get) { #expect($0.status == .unauthorized) }
            let rider = API.bearer(try await api.riderToken(7))
            for bad in ["", "?format=xml", "?format=csv&format=ndjson"] {
                try await client.execute(uri: "/v1/riders/7/trips/export\(bad)", method: .get, headers: rider) {
                    #expect($0.status == .badRequest)
                    #expect($0.json().string("param") == "format")
                }
            }
            try await client.execute(uri: "/v1/riders/7/trips/export?format=csv", method: .post, headers: rider) {
                #expect($0.status == .methodNotAllowed)
            }
        }
    }

    /// An export that has streamed for longer than the time limit is ended: the transfer stops without its last
    /// chunk, so a client reading just fast enough for the connection's rate rule cannot keep a slot for
    /// hours, and the slot is given back.
    @Test func anExportPastItsTimeLimitIsCutAndGivesItsSlotBack() async throws {
        let api = await API(
            repository: InMemoryTripRepository(), analystRepository: InMemoryAnalystTripRepository(trips: []),
            settings: {
                $0.exportTimeLimit = .zero
            })
        try await api.testLive { client in
            _ = try await history(client, api)
            let rider = API.bearer(try await api.riderToken(7))
            let complete = try? await client.execute(
                uri: "/v1/riders/7/trips/export?format=ndjson", method: .get, headers: rider
            ) { response in String(buffer: response.body).split(separator: "\n").count }
            #expect(complete != 2, "the export was sent whole past its time limit")
            var polls = 0
            while api.riderExportSlots.active > 0, polls < 500 {
                try await Task.sleep(for: .milliseconds(10))
                polls += 1
            }
            #expect(api.riderExportSlots.active == 0)
        }
    }
}
