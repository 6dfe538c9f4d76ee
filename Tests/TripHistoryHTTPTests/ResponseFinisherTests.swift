import Dispatch
import HTTPTypes
import Logging
import Prometheus
import Testing

@testable import TripHistoryHTTP

/// The one component that finishes every response, alone: what it stamps on the fields and how it counts.
@Suite struct ResponseFinisherTests {
    private static let origin = "https://app.example"

    @Test func aResponseGetsTheFieldsEveryResponseCarries() throws {
        let finisher = ResponseFinisher(cors: try #require(CORSPolicy(origins: [Self.origin])))
        var headers: HTTPFields = [.contentType: "application/json"]
        finisher.finish(
            &headers, status: .ok, route: "/v1/riders/{rider_id}/trips", requestID: "req-1", origin: Self.origin,
            rateLimit: nil, span: nil, logger: .init(label: "test"))
        #expect(headers[ResponseFinisher.requestIDField] == "req-1")
        #expect(headers[.xContentTypeOptions] == "nosniff")
        #expect(headers[.accessControlAllowOrigin] == Self.origin)
        #expect(headers[.contentType] == "application/json", "what the response had stays")

        var fromElsewhere: HTTPFields = [:]
        finisher.finish(
            &fromElsewhere, status: .ok, route: nil, requestID: "req-2", origin: nil, rateLimit: nil, span: nil,
            logger: .init(label: "test"))
        #expect(fromElsewhere[.accessControlAllowOrigin] == nil, "no CORS fields for an origin not granted")
    }

    @Test func aResponseIsCountedUnderItsRouteOrNotFound() {
        let registry = PrometheusCollectorRegistry()
        let finisher = ResponseFinisher(metrics: RequestMetrics(factory: PrometheusMetricsFactory(registry: registry)))
        let started = DispatchTime.now().uptimeNanoseconds
        finisher.record(route: "/healthz", method: .get, status: .ok, started: started)
        finisher.record(route: "/healthz", method: .get, status: .ok, started: started)
        finisher.record(route: nil, method: .get, status: .notFound, started: started)
        let text = String(decoding: registry.emitToBuffer(), as: UTF8.self)
        #expect(
            text.contains(
                "hb_requests{http_route=\"/healthz\",http_request_method=\"GET\",http_response_status_code=\"200\"} 2"))
        #expect(
            text.contains(
                "hb_requests{http_route=\"NotFound\",http_request_method=\"GET\",http_response_status_code=\"404\"} 1"))
    }
}
