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

    static func tripJSON(_ id: Int) -> String {
        """
        {"id":"\(id)","rider_id":"1","status":"completed","product":"UberX","city":"Paris",\
        "time_zone":"Europe/Paris","requested_at":"2026-03-01T08:00:00Z","started_at":"2026-03-01T08:04:00.250Z",\
        "completed_at":"2026-03-01T08:31:00.000123Z",\
        "pickup":{"lat":48.8566,"lon":2.3522,"address":"1 Rue de Rivoli"},\
        "dropoff":{"lat":48.8738,"lon":2.295,"address":"Place Charles de Gaulle"},\
        "distance_m":5200,"duration_s":1620,"version":1,"recorded_at":"2026-03-01T08:32:00Z",\
        "updated_at":"2026-03-01T08:32:00Z",\
        "fare":{"amount_minor":1850,"currency":"EUR","total_minor":1850,"tips_minor":0,"refunds_minor":0},\
        "display":{"title":"Trip to Place Charles de Gaulle \(id)","date":"Mar 1, 2026","time":"9:00\u{202F}AM",\
        "fare":"€18.50","distance":"3.2 mi","duration":"27 min","status":"Completed"}}
        """
    }

    static func pageJSON(_ ids: [Int], next: String?, prev: String?) -> String {
        func json(_ cursor: String?) -> String { cursor.map { "\"\($0)\"" } ?? "null" }
        return """
            {"data":[\(ids.map(tripJSON).joined(separator: ","))],\
            "page":{"limit":\(max(ids.count, 1)),"has_more":\(next != nil),"next_cursor":\(json(next)),\
            "prev_cursor":\(json(prev))},"filter":{"from":null,"to":null,"tz":null,"status":null}}
            """
    }

    /// A client over `transport` whose waits are recorded by `sleeps`.
    static func client(
        _ transport: ScriptedTransport, sleeps: SleepRecorder = SleepRecorder(), maxAttempts: Int = 3,
        maxDelay: Duration = .seconds(60), language: String? = nil
    ) -> TripHistoryClient {
        TripHistoryClient(
            serverURL: baseURL, acceptLanguage: language, transport: transport,
            retryPolicy: RetryPolicy(
                maxAttempts: maxAttempts, baseDelay: .seconds(1), maxDelay: maxDelay,
                sleep: { try await sleeps.record($0) }),
            token: { "token-for-tests" }
        )
    }
}
