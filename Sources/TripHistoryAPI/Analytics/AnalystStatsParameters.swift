import Foundation
import TripHistoryDomain

/// The query of `GET /v1/trips/stats`: the analyst filter, the period, the zone that cuts periods, and the
/// field that splits them.
struct AnalystStatsParameters {
    let query: AnalystQueryParameters
    let granularity: StatsGranularity
    /// `by`: the field each period is split by, nil when absent.
    let dimension: StatsDimension?

    /// The parameters of `GET /v1/trips/stats` beyond the shared filter's.
    static let names = ["group_by", "by"]

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
        let dimension = try query["by"].map { text throws(Problem) in
            guard let parsed = StatsDimension(rawValue: String(text)) else {
                throw Problem.invalidParameter("by", "by must be one of: city, product.")
            }
            return parsed
        }
        return AnalystStatsParameters(query: common, granularity: granularity, dimension: dimension)
    }

    /// The zone periods are cut in: `tz`, else UTC.
    var timeZoneIdentifier: String { query.timeZone?.identifier ?? "UTC" }
}
