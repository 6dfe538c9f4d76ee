import Foundation
import TripHistoryDomain

/// The query of `GET /v1/trips/stats`: the analyst filter, the period, and the zone that cuts periods.
struct AnalystStatsParameters {
    let query: AnalystQueryParameters
    let granularity: StatsGranularity

    /// The parameters of `GET /v1/trips/stats` beyond the shared filter's.
    static let names = ["group_by"]

    static func parse(
        _ query: QueryParameters, limits: AnalystQueryLimits
    ) throws(Problem) -> AnalystStatsParameters {
        try TripListParameters.rejectRepeated(names, in: query)
        let common = try AnalystQueryParameters.parse(query, limits: limits)
        let granularity: StatsGranularity
        if let text = query["group_by"] {
            guard let parsed = StatsGranularity(rawValue: String(text)) else {
                throw Problem.invalidParameter("group_by", "group_by must be one of: day, week, month.")
            }
            granularity = parsed
        } else {
            granularity = .day
        }
        return AnalystStatsParameters(query: common, granularity: granularity)
    }

    /// The zone periods are cut in: `tz`, else UTC.
    var timeZoneIdentifier: String { query.timeZone?.identifier ?? "UTC" }
}
