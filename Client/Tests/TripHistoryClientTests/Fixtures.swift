import Foundation
import TripHistoryClient

/// Canned answers of the service and a client over a scripted transport.
enum Fixtures {
    static let baseURL = URL(string: "https://trips.example.test")!

    static func okHeaders(etag: String) -> [String: String] {
        [
            "X-Request-ID": "req-ok", "ETag": etag, "Server-Timing": "cache;desc=hit",
            "Vary": "Authorization, Accept-Language", "Cache-Control": "private, no-cache",
            "Content-Language": "en-US",
        ]
    }

    /// A trip as a list row; with `tipMinor` a tip raised its total (give it a `version` above 1 then).
    static func tripJSON(
        _ id: Int, version: Int = 1, tipMinor: Int = 0, requestedAt: String = "2026-03-01T08:00:00Z",
        status: String = "completed", timeZone: String = "Europe/Paris", date: String = "Mar 1, 2026",
        time: String = "9:00\u{202F}AM"
    ) -> String {
        let total = 1850 + tipMinor
        let fare = "€\(total / 100).\(total % 100 < 10 ? "0" : "")\(total % 100)"
        return """
            {"id":"\(id)","rider_id":"1","status":"\(status)","product":"UberX","city":"Paris",\
            "time_zone":"\(timeZone)","requested_at":"\(requestedAt)","started_at":"2026-03-01T08:04:00.250Z",\
            "completed_at":"2026-03-01T08:31:00.000123Z",\
            "pickup":{"lat":48.8566,"lon":2.3522,"address":"1 Rue de Rivoli"},\
            "dropoff":{"lat":48.8738,"lon":2.295,"address":"Place Charles de Gaulle"},\
            "distance_m":5200,"duration_s":1620,"version":\(version),"recorded_at":"2026-03-01T08:32:00Z",\
            "updated_at":"2026-03-01T08:32:00Z",\
            "fare":{"amount_minor":1850,"currency":"EUR","total_minor":\(total),"tips_minor":\(tipMinor),"refunds_minor":0},\
            "display":{"title":"Trip to Place Charles de Gaulle \(id)","date":"\(date)","time":"\(time)",\
            "fare":"\(fare)","distance":"3.2 mi","duration":"27 min","status":"Completed"}}
            """
    }

    static func pageJSON(_ ids: [Int], next: String?, prev: String?) -> String {
        pageJSON(trips: ids.map { tripJSON($0) }, next: next, prev: prev)
    }

    /// A page of `trips`; `from` and `to` are the filter's bounds as the service applied them.
    static func pageJSON(
        trips: [String], next: String?, prev: String?, from: String? = nil, to: String? = nil
    ) -> String {
        func json(_ text: String?) -> String { text.map { "\"\($0)\"" } ?? "null" }
        return """
            {"data":[\(trips.joined(separator: ","))],\
            "page":{"limit":\(max(trips.count, 1)),"has_more":\(next != nil),"next_cursor":\(json(next)),\
            "prev_cursor":\(json(prev))},"filter":{"from":\(json(from)),"to":\(json(to)),"tz":null,"status":null}}
            """
    }

    /// A changes-feed answer.
    static func changesJSON(_ entries: [String], next: String, hasMore: Bool) -> String {
        """
        {"data":[\(entries.joined(separator: ","))],"page":{"has_more":\(hasMore),"next_since":"\(next)"}}
        """
    }

    /// A feed entry for a recorded or adjusted trip.
    static func upsert(_ tripJSON: String) -> String {
        #"{"change":"upsert","trip":\#(tripJSON)}"#
    }

    /// A feed entry for a trip that no longer exists.
    static func erased(_ id: Int) -> String {
        #"{"change":"erased","id":"\#(id)"}"#
    }

    /// A client over `transport` whose waits are recorded by `sleeps`.
    static func client(
        _ transport: ScriptedTransport, sleeps: SleepRecorder = SleepRecorder(), maxAttempts: Int = 3,
        maxDelay: TimeInterval = 60, language: String? = nil
    ) -> TripHistoryClient {
        TripHistoryClient(
            serverURL: baseURL, acceptLanguage: language, transport: transport,
            retryPolicy: RetryPolicy(
                maxAttempts: maxAttempts, baseDelay: 1, maxDelay: maxDelay,
                sleep: { try await sleeps.record($0) }),
            token: { "token-for-tests" }
        )
    }
}
