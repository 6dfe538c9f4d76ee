import Foundation
import HTTPTypes
import OpenAPIRuntime

/// A transport that answers like the trip history service from canned trips, with no network and no token
/// check: for SwiftUI previews, UI tests and demos (`TripHistoryClient.preview(_:latency:)` makes a client over
/// it).
///
/// With `.trips(count:)` it serves that many sample trips of whichever rider is asked, newest first: pages that
/// honour `limit`, their cursors both ways, the `from`/`to` bounds (a day starts at midnight in `tz`, UTC
/// without it) and `status`; a trip's detail with its fare's line items and its tip; a changes feed in which
/// nothing ever changes; and a `304` to a matching `If-None-Match`. `.empty` serves no trip at all, `.failing`
/// answers every request with one problem. The display strings are English.
public struct PreviewTransport: ClientTransport {
    /// What the canned service answers.
    public enum Scenario: Sendable, Hashable {
        /// `count` sample trips (`PreviewTransport.sampleTrips(count:)`), in pages.
        case trips(count: Int)
        /// A rider without trips: every page is empty.
        case empty
        /// Every request fails with this problem, as the service sends it.
        case failing(status: Int, code: String, retryable: Bool)

        /// The service is down for a moment: `503 unavailable`, recoverable.
        public static let unavailable = Scenario.failing(status: 503, code: "unavailable", retryable: true)
        /// The token was refused: `401 unauthorized`, not recoverable by repeating.
        public static let unauthorized = Scenario.failing(status: 401, code: "unauthorized", retryable: false)
    }

    /// What this transport answers.
    public let scenario: Scenario
    /// How long each answer takes, in seconds, so loading states show.
    public let latency: TimeInterval

    /// A transport answering `scenario`, each answer after `latency` seconds.
    public init(_ scenario: Scenario = .trips(count: 45), latency: TimeInterval = 0) {
        self.scenario = scenario
        self.latency = latency
    }

    /// `count` sample trips in list form, newest first, as the transport serves them: for a preview of one row.
    public static func sampleTrips(count: Int) -> [Trip] {
        PreviewCatalog(count: count).trips.compactMap { try? PreviewCatalog.decode(Trip.self, from: $0.row()) }
    }

    /// The canned answer to `request`.
    public func send(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String
    ) async throws
        -> (HTTPResponse, HTTPBody?)
    {
        if latency > 0 { try await RetryPolicy.taskSleep(latency) }
        try Task.checkCancellation()
        let answer = answer(to: request, operationID: operationID)
        // The fields the service sends, those the API requires included.
        var fields = HTTPFields()
        fields[.contentType] = answer.status >= 400 ? "application/problem+json" : "application/json"
        fields[.requestID] = "preview"
        if answer.status < 400 {
            fields[.vary] = "Authorization, Accept-Language"
            fields[.cacheControl] = "private, no-cache"
            fields[.contentLanguage] = "en-US"
        }
        if let etag = answer.etag { fields[.eTag] = etag }
        if answer.status == 304 { return (HTTPResponse(status: .init(code: 304), headerFields: fields), nil) }
        return (HTTPResponse(status: .init(code: answer.status), headerFields: fields), HTTPBody(answer.body))
    }

    private func answer(to request: HTTPRequest, operationID: String) -> PreviewCatalog.Answer {
        let query = PreviewCatalog.Query(path: request.path ?? "")
        let count: Int
        switch scenario {
        case .failing(let status, let code, let retryable):
            return .problem(status: status, code: code, retryable: retryable)
        case .empty: count = 0
        case .trips(let trips): count = trips
        }
        let catalog = PreviewCatalog(count: count)
        let rider = query.segments.count > 2 ? query.segments[2] : "1"
        let answer: PreviewCatalog.Answer
        switch operationID {
        case "listRiderTrips": answer = catalog.page(rider: rider, query: query)
        case "listRiderTripChanges": answer = catalog.changes()
        case "getRiderTrip":
            let id = query.segments.count > 4 ? query.segments[4] : ""
            answer = catalog.detail(rider: rider, id: id)
        default:
            answer = .problem(status: 404, code: "not_found", retryable: false)
        }
        if let etag = answer.etag, request.headerFields[.ifNoneMatch] == etag {
            return PreviewCatalog.Answer(status: 304, etag: etag, body: [])
        }
        return answer
    }
}
