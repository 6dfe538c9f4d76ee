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
/// A function declared `LANGUAGE plpgsql` (the rider's reads, whose plans a session then keeps, where PL/Proxy's
/// unprepared call would plan an inlined SQL body on every call) holds the same text as its one `RETURN QUERY`,
/// or `RETURN (...)` when it returns a single value, after `#variable_conflict use_column`, so that the names in
/// the statement are the table's columns as on one node: `expectedBody(of:in:)` says which.
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
            #expect(
                String(text[function.body]) == Self.expectedBody(of: sql, in: function.declaration),
                "the body of partition function \(function.mark)")
        }
    }

    /// A function marked `-- statement: MARK`: the name the next `CREATE OR REPLACE FUNCTION` gives it, its
    /// declaration up to its body (arguments, result, language), and where its body is, between the first
    /// `$statement$` after the mark and the next.
    private struct MarkedFunction {
        let mark: String
        let name: String
        let declaration: String
        let body: Range<String.Index>
    }

    /// The body a function declared by `declaration` must have to run `sql`: the text itself for LANGUAGE sql;
    /// for LANGUAGE plpgsql, the text as the one `RETURN QUERY` of a set-returning function or the one
    /// `RETURN (...)` of another, its names resolved to columns first.
    static func expectedBody(of sql: String, in declaration: String) -> String {
        guard declaration.contains("LANGUAGE plpgsql") else { return "\n\(sql)\n" }
        let returnsSet = declaration.contains("RETURNS SETOF ") || declaration.contains("RETURNS TABLE ")
        let statement = returnsSet ? "RETURN QUERY\n\(sql);" : "RETURN (\n\(sql)\n);"
        return "\n#variable_conflict use_column\nBEGIN\n\(statement)\nEND\n"
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
                MarkedFunction(
                    mark: String(name), name: String(functionName),
                    declaration: String(rest[definition.upperBound..<open.lowerBound]),
                    body: open.upperBound..<close.lowerBound))
            rest = rest[close.upperBound...]
        }
        return functions
    }

    /// `text` with each marked function's body replaced by its statement's SQL on lines of its own (as its
    /// language wants it).
    private static func replacingBodies(
        of functions: [MarkedFunction], in text: String, with statements: [String: String]
    ) -> String {
        var result = text
        for function in functions.reversed() {
            guard let sql = statements[function.mark] else { continue }
            result.replaceSubrange(function.body, with: expectedBody(of: sql, in: function.declaration))
        }
        return result
    }
}
