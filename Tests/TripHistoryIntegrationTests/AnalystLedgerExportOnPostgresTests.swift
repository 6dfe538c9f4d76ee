import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import TripHistoryApp
import TripHistoryData
import TripHistoryDataTestSupport
import TripHistoryDomain
import TripHistoryFakes
import TripHistoryTestSupport

@testable import TripHistoryAPI

/// The analyst export with `include=fare_breakdown,adjustments` on the real database: each trip's money parts
/// are exactly those of the rider's own export of the same trip, without the receipt's personal parts.
@Suite struct AnalystLedgerExportOnPostgresTests {
    /// Nine trips of two fresh riders in a fresh city: two in three with a full receipt, and tips, refunds and
    /// a correction on some. Returns the city and the riders.
    private func seed(_ pool: PostgresConnectionPool) async throws -> (city: String, riders: [Int64]) {
        let repository = PostgresTripRepository(pool: pool)
        let city = "Ledger \(UInt64.random(in: 0...UInt64.max))"
        let riders = (0..<2).map { _ in DataTestDatabase.randomRiderID().rawValue }
        let receipt = TripReceipt(
            breakdown: [
                FareLine(kind: .base, amountMinor: 1300), FareLine(kind: .bookingFee, amountMinor: 250),
                FareLine(kind: .promotion, amountMinor: -50),
            ],
            payment: Payment(method: .card, brand: "visa", last4: "4242"),
            driver: Driver(firstName: "Ana", vehicle: Vehicle(make: "Kia", model: "Niro", color: "red", plate: "AB1")))
        for index in 0..<9 {
            let new = InMemoryAnalystFixtures.newTrip(
                rider: riders[index % 2], city: city,
                requestedAt: InMemoryAnalystFixtures.start.addingTimeInterval(86_400 * 3 + Double(index) * 3_600),
                fare: 1500, receipt: index % 3 == 0 ? .empty : receipt)
            let trip = try await repository.record(new, idempotency: nil).trip
            let adjustments: [(AdjustmentKind, Int64, String)] =
                switch index % 4 {
                case 1: [(.tip, 200, "thanks")]
                case 2: [(.refund, -100, "late, \"very\""), (.fareCorrection, 50, "=toll")]
                default: []
                }
            for (kind, amount, reason) in adjustments {
                _ = try await repository.adjust(
                    try NewAdjustment.requested(kind: kind, amountMinor: amount, reason: reason),
                    tripID: trip.id, riderID: trip.riderID, expectedVersion: nil, idempotency: nil
                ) { _ in }
            }
        }
        return (city, riders)
    }

    private func lines(_ body: ByteBuffer) throws -> [[String: Any]] {
        try String(buffer: body).split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    /// The JSON value at `key` of `object`, as an object `isEqual` compares by value (nil when absent).
    private func value(_ object: [String: Any], _ path: String...) -> NSObject? {
        var current: Any? = object
        for key in path { current = (current as? [String: Any])?[key] }
        return current as? NSObject
    }

    @Test func theExportWithItsLedgerEqualsTheRidersOwnExportsMoneyAndLeavesOutPersonalParts() async throws {
        try await DataTestDatabase.withPool { pool in
            let (city, riders) = try await seed(pool)
            let api = await TestAPI(
                repository: PostgresTripRepository(pool: pool),
                analystRepository: PostgresAnalystTripRepository(pool: pool),
                settings: { $0.exportBatchSize = 4 })
            let headers = TestAPI<PostgresTripRepository>.bearer(try await api.analystToken())
            let window = "from=2026-01-01&to=2026-03-01&city=\(QueryEncoding.escape(city))"
            try await api.test { client in
                // The oracle: each rider's own export, which carries every part of each trip.
                var riderJSON: [String: [String: Any]] = [:]
                var riderCSV: [String: [String: String]] = [:]
                for rider in riders {
                    let uri = "/v1/riders/\(rider)/trips/export?format="
                    try await client.execute(uri: uri + "ndjson", method: .get, headers: headers) { response in
                        for line in try lines(response.body) { riderJSON[line["id"] as! String] = line }
                    }
                    try await client.execute(uri: uri + "csv_raw", method: .get, headers: headers) { response in
                        let records = parseCSV(String(buffer: response.body))
                        for record in records.dropFirst() {
                            riderCSV[record[0]] = Dictionary(uniqueKeysWithValues: zip(records[0], record))
                        }
                    }
                }
                #expect(riderJSON.count == 9 && riderCSV.count == 9)

                let both = "/v1/trips/export?\(window)&include=fare_breakdown,adjustments&format="
                try await client.execute(uri: both + "ndjson", method: .get, headers: headers) { response in
                    #expect(response.status == .ok)
                    let exported = try lines(response.body)
                    #expect(exported.count == 9)
                    for line in exported {
                        let own = try #require(riderJSON[line["id"] as! String])
                        #expect(value(line, "fare", "breakdown") == value(own, "fare", "breakdown"))
                        #expect(value(line, "adjustments") == value(own, "adjustments"))
                        #expect(value(line, "adjustments") != nil)
                        for personal in ["payment", "driver", "route"] { #expect(line[personal] == nil) }
                    }
                    #expect(exported.filter { value($0, "fare", "breakdown") != nil }.count == 6)
                    #expect(exported.filter { ((value($0, "adjustments") as? NSArray)?.count ?? 0) == 2 }.count == 2)
                    #expect(riderJSON.values.filter { $0["payment"] != nil }.count == 6)
                }
                try await client.execute(uri: both + "csv_raw", method: .get, headers: headers) { response in
                    let records = parseCSV(String(buffer: response.body))
                    let extra = ["corrections_minor", "fare_breakdown", "adjustments"]
                    #expect(records.first == CSVWriter.columns + extra)
                    #expect(records.count == 10)
                    for record in records.dropFirst() {
                        let own = try #require(riderCSV[record[0]])
                        for (offset, column) in extra.enumerated() {
                            #expect(record[CSVWriter.columns.count + offset] == own[column], "\(column)")
                        }
                    }
                    #expect(records.dropFirst().contains { $0.last!.contains("=toll") })
                }

                // One part alone brings that part alone.
                let adjustmentsOnly = "/v1/trips/export?\(window)&include=adjustments&format="
                try await client.execute(uri: adjustmentsOnly + "ndjson", method: .get, headers: headers) { response in
                    for line in try lines(response.body) {
                        #expect(value(line, "adjustments") != nil && value(line, "fare", "breakdown") == nil)
                    }
                }
                try await client.execute(uri: adjustmentsOnly + "csv", method: .get, headers: headers) { response in
                    let records = parseCSV(String(buffer: response.body))
                    #expect(records.first == CSVWriter.columns + ["corrections_minor", "adjustments"])
                }
                try await client.execute(
                    uri: "/v1/trips/export?\(window)&include=fare_breakdown&format=ndjson", method: .get,
                    headers: headers
                ) { response in
                    let exported = try lines(response.body)
                    #expect(exported.allSatisfy { value($0, "adjustments") == nil })
                    #expect(exported.filter { value($0, "fare", "breakdown") != nil }.count == 6)
                }
                // Without include, neither part.
                try await client.execute(
                    uri: "/v1/trips/export?\(window)&format=ndjson", method: .get, headers: headers
                ) { response in
                    let exported = try lines(response.body)
                    #expect(exported.count == 9)
                    #expect(
                        exported.allSatisfy { value($0, "adjustments") == nil && value($0, "fare", "breakdown") == nil }
                    )
                }
                for bad in [
                    "include=receipt", "include=", "include=adjustments,", "include=adjustments&include=adjustments",
                ] {
                    try await client.execute(
                        uri: "/v1/trips/export?\(window)&format=csv&\(bad)", method: .get, headers: headers
                    ) { response in
                        #expect(response.status == .badRequest, "\(bad)")
                        #expect(response.json().string("param") == "include", "\(bad)")
                    }
                }
            }
        }
    }
}
