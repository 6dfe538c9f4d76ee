import Foundation
import Testing
import TripHistoryDomain

@testable import TripHistoryData

/// The partition databases of the sharded topology run the service's statements as functions
/// (`scripts/shards/partition.sql`), each marked `-- statement: NAME` and named after the statement's prepared
/// name, so that a partition answers exactly as one node does. These tests fail when a statement changes and
/// its function does not (or the other way round): the function then needs the statement's new text, under the
/// statement's new name when its version changed.
@Suite struct ShardPartitionSQLTests {
    /// Every statement a partition function runs, by prepared name.
    static func statements() throws -> [PreparedStatement] {
        let range = try DateRange(
            from: Date(timeIntervalSince1970: 1_780_000_000), to: Date(timeIntervalSince1970: 1_782_000_000))
        let city = try AnalystTripFilter(range: range, city: "Paris")
        let anyRider = try #require(RiderID(1))
        func named<Statement: PostgresPreparedStatement>(_ type: Statement.Type) -> PreparedStatement {
            PreparedStatement(name: Statement.name, sql: Statement.sql)
        }
        return [
            RiderTripsPage.older, RiderTripsPage.newer,
            RiderTripsCount(riderID: anyRider, filter: .all, way: .exact(limit: 1)).prepared,
            named(TripByID.self), named(RiderTripsExportBatch.self),
            named(RiderChangesPage.self), named(RiderLastChange.self),
            named(LockIdempotencyKey.self), named(FindIdempotentTrip.self), named(TouchIdempotencyKey.self),
            named(InsertIdempotencyKey.self), named(InsertTrip.self), named(InsertTripReceipt.self),
            named(InsertTripChange.self), named(AnnounceRecordedTrip.self), named(NotifyTripChange.self),
            named(LockTrip.self), named(InsertAdjustment.self),
            named(LockRiderTrips.self), named(LockRiderChangeCounter.self), named(RetirementLock.Shared.self),
            named(DetachedTripYears.self), named(EraseRiderTrips.self),
            AnalystTripsPage(direction: .older, filter: city, keyRequestedAt: .infinity, keyID: .max, limit: 1)
                .prepared,
            AnalystTripsPage(direction: .newer, filter: city, keyRequestedAt: .infinity, keyID: .max, limit: 1)
                .prepared,
            AnalystTripsCount(filter: city, .exact(limit: 1)).prepared,
            AnalystStats(filter: city, granularity: .month, timeZone: "Europe/Paris").prepared,
        ]
    }

    @Test func everyMarkedFunctionRunsItsStatementTextForText() throws {
        let functions = try Self.markedFunctions()
        let byName = Dictionary(uniqueKeysWithValues: try Self.statements().map { ($0.name, $0) })
        #expect(Set(functions.keys) == Set(byName.keys))
        for (name, function) in functions {
            #expect(function.name == name, "the function marked \(name) is named \(function.name)")
            guard let statement = byName[name] else { continue }
            #expect(function.body == Self.normalized(statement.sql), "partition function \(name)")
        }
    }

    /// The functions marked `-- statement: NAME`, by NAME: the name the next `CREATE OR REPLACE FUNCTION` gives
    /// it, and its body, the text between the first `$statement$` after the mark and the next, whitespace
    /// collapsed.
    private static func markedFunctions() throws -> [String: (name: String, body: String)] {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts/shards/partition.sql")
        let text = try String(contentsOf: url, encoding: .utf8)
        var functions: [String: (name: String, body: String)] = [:]
        var rest = text[...]
        let create = "CREATE OR REPLACE FUNCTION "
        while let mark = rest.range(of: "-- statement: ") {
            let name = rest[mark.upperBound...].prefix(while: { $0 != " " && $0 != "\n" })
            guard let definition = rest[mark.upperBound...].range(of: create),
                let open = rest[definition.upperBound...].range(of: "$statement$"),
                let close = rest[open.upperBound...].range(of: "$statement$")
            else { break }
            let functionName = rest[definition.upperBound...].prefix(while: { $0 != "(" })
            functions[String(name)] = (
                String(functionName), normalized(String(rest[open.upperBound..<close.lowerBound]))
            )
            rest = rest[close.upperBound...]
        }
        return functions
    }

    private static func normalized(_ sql: String) -> String {
        sql.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
    }
}
