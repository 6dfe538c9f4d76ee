import ArgumentParser

/// Limits of the analyst API (`GET /v1/trips`, its exports, `GET /v1/trips/stats`), read from the environment:
///
/// - `TRIP_HISTORY_ANALYST_MAX_SPAN_DAYS`: widest `from`..`to` window in days (default 400).
/// - `TRIP_HISTORY_ANALYST_MAX_EXPORTS`: exports streaming at once; more get 429 (default 2).
/// - `TRIP_HISTORY_ANALYST_MAX_EXPORTS_PER_ANALYST`: exports one analyst may stream at once (default 1).
/// - `TRIP_HISTORY_ANALYST_MAX_STATS_PER_ANALYST`: stats queries one analyst may run at once (default 2).
/// - `TRIP_HISTORY_ANALYST_STATEMENT_TIMEOUT_MS`: statement timeout of analyst queries, which may be longer
///   than the rider default `TRIP_HISTORY_STATEMENT_TIMEOUT_MS` (default 30000).
struct AnalystConfiguration: Sendable {
    var maximumSpanDays = 400
    var maximumConcurrentExports = 2
    var maximumExportsPerAnalyst = 1
    var maximumStatsPerAnalyst = 2
    var statementTimeout: Duration = .seconds(30)

    /// The defaults, overridden by whichever variables are set. Throws on a value that is not a positive integer.
    static func load(environment: [String: String]) throws -> AnalystConfiguration {
        var configuration = AnalystConfiguration()
        if let days = try positive(environment, "TRIP_HISTORY_ANALYST_MAX_SPAN_DAYS") {
            configuration.maximumSpanDays = days
        }
        if let exports = try positive(environment, "TRIP_HISTORY_ANALYST_MAX_EXPORTS") {
            configuration.maximumConcurrentExports = exports
        }
        if let exports = try positive(environment, "TRIP_HISTORY_ANALYST_MAX_EXPORTS_PER_ANALYST") {
            configuration.maximumExportsPerAnalyst = exports
        }
        if let queries = try positive(environment, "TRIP_HISTORY_ANALYST_MAX_STATS_PER_ANALYST") {
            configuration.maximumStatsPerAnalyst = queries
        }
        if let milliseconds = try positive(environment, "TRIP_HISTORY_ANALYST_STATEMENT_TIMEOUT_MS") {
            configuration.statementTimeout = .milliseconds(milliseconds)
        }
        return configuration
    }

    private static func positive(_ environment: [String: String], _ name: String) throws -> Int? {
        guard let text = environment[name] else { return nil }
        guard let value = Int(text), value > 0 else { throw ValidationError("\(name) must be a positive integer.") }
        return value
    }
}
