import Foundation
import TripHistoryDomain

/// The query of `GET /v1/trips` beyond the filter: page size, cursor, and the resume point of an export.
struct AnalystListParameters {
    let query: AnalystQueryParameters
    let limit: AnalystPageLimit
    let cursor: Substring?
    /// Where an interrupted export resumes: the `id` and `requested_at` of the last trip received.
    let resumeAfter: TripKey?
    /// How a page counts the trips the filter matches (`count`); nil counts nothing.
    let count: TripCountMode?

    /// The parameters of `GET /v1/trips` beyond the shared filter's.
    static let names = ["limit", "cursor", "resume_after", "resume_requested_at", "count"]

    static func parse(
        _ query: QueryParameters, limits: AnalystQueryLimits
    ) throws(Problem) -> AnalystListParameters {
        try TripListParameters.rejectRepeated(names, in: query)
        let common = try AnalystQueryParameters.parse(query, limits: limits)
        let limit = try AnalystPageLimit.parse(query["limit"])
        if let cursor = query["cursor"], cursor.isEmpty {
            throw Problem.invalidParameter("cursor", "cursor must not be empty; omit it for the first page.")
        }
        let resumeAfter: TripKey?
        switch (query["resume_after"], query["resume_requested_at"]) {
        case (nil, nil):
            resumeAfter = nil
        case (let id?, let time?):
            guard let tripID = TripID(id) else {
                throw Problem.invalidParameter("resume_after", "resume_after must be the id of the last trip received.")
            }
            guard let instant = RFC3339.parseTimestamp(time) else {
                throw Problem.invalidParameter(
                    "resume_requested_at", "resume_requested_at must be the requested_at of the last trip received."
                )
            }
            resumeAfter = TripKey(requestedAtMicros: Timestamp.micros(instant), id: tripID)
        case (nil, _?):
            throw Problem.invalidParameter("resume_after", "resume_after is required with resume_requested_at.")
        case (_?, nil):
            throw Problem.invalidParameter("resume_requested_at", "resume_requested_at is required with resume_after.")
        }
        if resumeAfter != nil, query["cursor"] != nil {
            throw Problem.invalidParameter("cursor", "Send either cursor or resume_after, not both.")
        }
        return AnalystListParameters(
            query: common, limit: limit, cursor: query["cursor"], resumeAfter: resumeAfter,
            count: try TripListParameters.parseCount(query["count"]))
    }
}
