import Foundation
import Testing
import TripHistoryDomain

@testable import TripHistoryData

/// The pgbench scripts of `bench/pgbench/` claim to run the repository's exact statements, so the baselines and
/// the partitioning rows of BENCHMARKS.md measure what the service sends. These tests fail when a statement
/// changes and its script does not.
@Suite struct BenchStatementTests {
    @Test func firstPageScriptRunsTheRiderPageStatement() throws {
        let script = try Self.statement(
            inScript: "first_page.sql",
            parameters: [":rider", ":lo", ":hi", ":at", ":id", ":statuses", ":fetch"])
        #expect(script == Self.normalized(RiderTripsPage.older.sql))
    }

    @Test func deepPageScriptRunsTheRiderPageStatement() throws {
        let script = try Self.statement(
            inScript: "deep_page.sql",
            parameters: [":deep_rider", ":lo", ":hi", ":at", ":id", ":statuses", ":fetch"])
        #expect(script == Self.normalized(RiderTripsPage.older.sql))
    }

    @Test func analystCityScriptRunsTheAnalystPageStatementWithACity() throws {
        let range = try DateRange(
            from: Date(timeIntervalSince1970: 1_780_000_000), to: Date(timeIntervalSince1970: 1_782_000_000))
        let page = AnalystTripsPage(
            direction: .older, filter: try AnalystTripFilter(range: range, city: "Paris"), keyRequestedAt: .infinity,
            keyID: .max, limit: 101)
        let script = try Self.statement(
            inScript: "analyst_city_page.sql", parameters: [":lo", ":hi", ":at", ":id", ":statuses", ":city", ":fetch"])
        #expect(script == Self.normalized(page.prepared.sql))
    }

    /// The script's statement with its pgbench variables replaced by `$1`, `$2`... in the order given, without
    /// comments, `\set` lines and the final semicolon, whitespace collapsed.
    private static func statement(inScript name: String, parameters: [String]) throws -> String {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("bench/pgbench/\(name)")
        var text = try String(contentsOf: url, encoding: .utf8)
            .split(separator: "\n")
            .filter { !$0.hasPrefix("--") && !$0.hasPrefix("\\") }
            .joined(separator: " ")
        // Longest names first, so ":id" does not replace the start of a longer name.
        for (index, parameter) in parameters.enumerated().sorted(by: { $0.element.count > $1.element.count }) {
            text = text.replacingOccurrences(of: parameter, with: "$\(index + 1)")
        }
        if text.hasSuffix(";") { text.removeLast() }
        return normalized(text)
    }

    private static func normalized(_ sql: String) -> String {
        sql.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
    }
}
