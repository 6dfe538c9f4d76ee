import Foundation
import Testing
import TripHistoryDomain

@testable import TripHistoryData

/// The partition databases of the sharded topology run the service's statements as functions
/// (`scripts/shards/partition.sql`), each marked `-- statement: NAME`, named after the statement's prepared name
/// and generated from its SQL, so that a partition answers exactly as one node does. These tests fail when a
/// statement changes and its function does not (or the other way round). After changing a statement, rewrite
/// the functions' bodies from the Swift text with
/// `TRIP_HISTORY_WRITE_PARTITION_SQL=1 swift test --skip-build --filter ShardPartitionSQLTests`; a statement whose
/// version changed also needs its marked function renamed (and its proxy function in `proxy.sql`).
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
            named(RiderChangesPage.self), named(RiderLastChange.self), named(AnalystChangesPage.self),
            named(LockIdempotencyKey.self), named(FindIdempotentTrip.self), named(TouchIdempotencyKey.self),
            named(InsertIdempotencyKey.self), named(InsertTrip.self), named(InsertTripReceipt.self),
            named(InsertTripChange.self), named(AnnounceRecordedTrip.self), named(NotifyTripChange.self),
            named(LockTrip.self), named(InsertAdjustment.self),
            named(LockRiderTrips.self), named(LockRiderChangeCounter.self), named(RetirementLock.Shared.self),
            named(DetachedTripYears.self), named(EraseRiderTrips.self),
            AnalystStats(filter: city, granularity: .month, timeZone: "Europe/Paris").prepared,
        ]
            + (try analystFilters(range: range)).flatMap { filter in
                [
                    AnalystTripsPage(
                        direction: .older, filter: filter, keyRequestedAt: .infinity, keyID: .max, limit: 1
                    )
                    .prepared,
                    AnalystTripsPage(
                        direction: .newer, filter: filter, keyRequestedAt: .infinity, keyID: .max, limit: 1
                    )
                    .prepared,
                    AnalystTripsCount(filter: filter, .exact(limit: 1)).prepared,
                ]
                    + [KeysetDirection.older, .newer].map { direction in
                        AnalystTripsPage(
                            direction: direction, filter: filter, keyRequestedAt: .infinity, keyID: .max, limit: 1,
                            includesLedger: true
                        ).prepared
                    }
                    + [nil, StatsDimension.city, .product].map { dimension in
                        AnalystStatsParts(
                            filter: filter, granularity: .month, timeZone: "Europe/Paris", dimension: dimension
                        ).prepared
                    }
            }
    }

    /// One analyst filter per combination of the optional equality filters (city, product, rider).
    static func analystFilters(range: DateRange) throws -> [AnalystTripFilter] {
        var filters: [AnalystTripFilter] = []
        for city in [nil, "Paris"] {
            for product in [nil, "UberX"] {
                for rider in [nil, RiderID(1)] {
                    filters.append(try AnalystTripFilter(range: range, city: city, product: product, riderID: rider))
                }
            }
        }
        return filters
    }

    @Test func everyMarkedFunctionRunsItsStatementTextForText() throws {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts/shards/partition.sql")
        let text = try String(contentsOf: url, encoding: .utf8)
        let statements = Dictionary(uniqueKeysWithValues: try Self.statements().map { ($0.name, $0.sql) })
        let functions = Self.markedFunctions(in: text)
        if ProcessInfo.processInfo.environment["TRIP_HISTORY_WRITE_PARTITION_SQL"] == "1" {
            try Self.replacingBodies(of: functions, in: text, with: statements).write(
                to: url, atomically: true, encoding: .utf8)
            return
        }
        #expect(Set(functions.map(\.mark)) == Set(statements.keys))
        for function in functions {
            #expect(function.name == function.mark, "the function marked \(function.mark) is named \(function.name)")
            guard let sql = statements[function.mark] else { continue }
            #expect(String(text[function.body]) == "\n\(sql)\n", "the body of partition function \(function.mark)")
        }
    }

    /// A function marked `-- statement: MARK`: the name the next `CREATE OR REPLACE FUNCTION` gives it, and
    /// where its body is, between the first `$statement$` after the mark and the next.
    private struct MarkedFunction {
        let mark: String
        let name: String
        let body: Range<String.Index>
    }

    private static func markedFunctions(in text: String) -> [MarkedFunction] {
        var functions: [MarkedFunction] = []
        var rest = text[...]
        let create = "CREATE OR REPLACE FUNCTION "
        while let mark = rest.range(of: "-- statement: ") {
            let name = rest[mark.upperBound...].prefix(while: { $0 != " " && $0 != "\n" })
            guard let definition = rest[mark.upperBound...].range(of: create),
                let open = rest[definition.upperBound...].range(of: "$statement$"),
                let close = rest[open.upperBound...].range(of: "$statement$")
            else { break }
            let functionName = rest[definition.upperBound...].prefix(while: { $0 != "(" })
            functions.append(
                MarkedFunction(mark: String(name), name: String(functionName), body: open.upperBound..<close.lowerBound)
            )
            rest = rest[close.upperBound...]
        }
        return functions
    }

    /// `text` with each marked function's body replaced by its statement's SQL on lines of its own.
    private static func replacingBodies(
        of functions: [MarkedFunction], in text: String, with statements: [String: String]
    ) -> String {
        var result = text
        for function in functions.reversed() {
            guard let sql = statements[function.mark] else { continue }
            result.replaceSubrange(function.body, with: "\n\(sql)\n")
        }
        return result
    }
}
