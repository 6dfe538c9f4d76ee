import Foundation
import TripHistoryAPI
import TripHistoryData
import TripHistoryDomain

/// What a load-test script needs from a seeded database, written by `trip-history seed --write-fixtures`: every
/// seeded rider with a rider token and the ids of their newest completed trips (those a tip may go to), and a
/// service token for the writes. One JSON document, one rider per line, written as the riders are read so a
/// large seed's file is never held whole:
///
///     {"expires_at":"2026-11-29T12:00:00Z","service_token":"eyJ...","riders":[
///     {"rider_id":"1","token":"eyJ...","trip_ids":["34","29"]},
///     ...
///     ]}
struct LoadTestFixtures {
    /// Trip ids listed per rider at most.
    static let tripsPerRider = 10
    /// The subject of the service token, so a load test's writes can be told apart in the logs.
    static let serviceSubject = "load-test"
    /// Riders read and written per batch; each batch's reads run concurrently over the pool's pipeline.
    static let batchSize = 64

    let tokens: AccessTokens
    let repository: PostgresTripRepository
    let timeToLive: Duration

    private struct Rider: Encodable {
        let riderID: String
        let token: String
        let tripIDs: [String]

        enum CodingKeys: String, CodingKey {
            case riderID = "rider_id"
            case token
            case tripIDs = "trip_ids"
        }
    }

    /// Writes the fixtures of `riders` to `output`, tokens issued at `now`; returns how many trip ids it listed.
    func write(riders: ClosedRange<Int>, to output: FileHandle, now: Date = Date()) async throws -> Int {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        func json(_ value: some Encodable) throws -> String {
            String(decoding: try encoder.encode(value), as: UTF8.self)
        }
        let expiresAt = now.addingTimeInterval(Double(timeToLive.components.seconds)).ISO8601Format()
        let service = try await tokens.issue(
            role: .service, subject: Self.serviceSubject, timeToLive: timeToLive, now: now)
        try output.write(
            contentsOf: Data(
                "{\"expires_at\":\(try json(expiresAt)),\"service_token\":\(try json(service)),\"riders\":[\n".utf8))
        var listed = 0
        var separator = ""
        var batchStart = riders.lowerBound
        while true {
            // Written so that no sum passes the range's upper bound, which may be near Int.max.
            let batch = batchStart...(batchStart + min(Self.batchSize - 1, riders.upperBound - batchStart))
            var text = ""
            for entry in try await read(batch, now: now) {
                text += separator + (try json(entry))
                separator = ",\n"
                listed += entry.tripIDs.count
            }
            try output.write(contentsOf: Data(text.utf8))
            guard batch.upperBound < riders.upperBound else { break }
            batchStart = batch.upperBound + 1
        }
        try output.write(contentsOf: Data("\n]}\n".utf8))
        return listed
    }

    /// The entries of `batch`, in id order.
    private func read(_ batch: ClosedRange<Int>, now: Date) async throws -> [Rider] {
        try await withThrowingTaskGroup(of: (Int, Rider).self) { group in
            for rider in batch {
                group.addTask {
                    guard let riderID = RiderID(Int64(rider)) else { throw RiderOutOfRange(rider: rider) }
                    let trips = try await repository.trips(
                        matching: TripPageQuery(
                            riderID: riderID, filter: TripFilter(range: .unbounded, status: .completed), position: nil,
                            fetchLimit: Self.tripsPerRider))
                    let token = try await tokens.issue(
                        role: .rider, subject: riderID.description, timeToLive: timeToLive, now: now)
                    return (
                        rider,
                        Rider(riderID: riderID.description, token: token, tripIDs: trips.map(\.id.description))
                    )
                }
            }
            var entries: [(Int, Rider)] = []
            for try await entry in group { entries.append(entry) }
            return entries.sorted { $0.0 < $1.0 }.map(\.1)
        }
    }

    struct RiderOutOfRange: Error, CustomStringConvertible {
        let rider: Int
        var description: String { "rider id \(rider) is not a positive 64-bit integer" }
    }
}
