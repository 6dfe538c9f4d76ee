import Foundation
import HTTPTypes
import HummingbirdTesting
import InMemoryTracing
import NIOCore
import Testing
import Tracing
import TripHistoryAPI
import TripHistoryData
import TripHistoryDataTestSupport
import TripHistoryDomain
import TripHistoryFakes
import TripHistoryHTTP
import TripHistoryTestSupport

/// Traces through the whole stack, HTTP to PostgreSQL: each statement a request runs is a span under the
/// request's, whichever thread ran it, and no span carries a bound value.
@Suite struct TracingOnPostgresTests {
    typealias API = TestAPI<PostgresTripRepository>

    static let traceParent = HTTPField.Name("traceparent")!

    /// Whether `span` descends from `ancestor` in `spans`.
    private static func descends(
        _ span: FinishedInMemorySpan, from ancestor: FinishedInMemorySpan, in spans: [FinishedInMemorySpan]
    ) -> Bool {
        var parent = span.parentSpanID
        while let id = parent {
            if id == ancestor.spanID { return true }
            parent = spans.first { $0.spanID == id }?.parentSpanID
        }
        return false
    }

    @Test func statementsAreSpansUnderTheirRequestAndCarryNoBoundValues() async throws {
        let tracer = W3CInMemoryTracer()
        try await DataTestDatabase.withPool(size: 4, tracer: tracer) { pool in
            let api = await TestAPI(
                repository: PostgresTripRepository(pool: pool),
                analystRepository: InMemoryAnalystTripRepository(trips: []), tracer: tracer)
            let rider = DataTestDatabase.randomRiderID()
            let distance = 987_654
            let service = try await api.recordHeaders()
            let incomingTrace = W3CInMemoryTracer.hex(bytes: 16)
            var traced = API.bearer(try await api.riderToken(rider.rawValue))
            traced[Self.traceParent] = "00-\(incomingTrace)-\(W3CInMemoryTracer.hex(bytes: 8))-01"
            let owner = traced
            let traceResponse = try await api.test { client in
                try await client.execute(
                    uri: "/v1/trips", method: .post, headers: service,
                    body: ByteBuffer(
                        string: TripFixtures.recordBody(
                            rider: rider, requestedAt: "2026-03-01T10:00:00-05:00", distance: distance))
                ) { #expect($0.status == .created) }
                return try await client.execute(uri: "/v1/riders/\(rider)/trips", method: .get, headers: owner) {
                    response in
                    #expect(response.status == .ok)
                    return response.headers[RequestTracing.traceResponseField]
                }
            }
            #expect(traceResponse?.contains(incomingTrace) == true)
            let spans = tracer.finishedSpans
            let requests = spans.filter { $0.kind == .server }
            #expect(requests.count == 2)
            for request in requests {
                let statements = spans.filter { $0.kind == .client && Self.descends($0, from: request, in: spans) }
                #expect(!statements.isEmpty, "no statement span under \(request.operationName)")
                #expect(statements.allSatisfy { $0.attributes["trip_history.db.pool"]?.toSpanAttribute() == "default" })
            }
            let read = try #require(requests.first { $0.traceID == incomingTrace })
            #expect(spans.contains { $0.kind == .client && Self.descends($0, from: read, in: spans) })
            // Bound values (the rider, the distance) and the tokens appear in no span.
            let forbidden = [String(rider.rawValue), String(distance), "Bearer"]
            for span in spans {
                var values = [span.operationName]
                // SpanAttributes is no Sequence: forEach is its only walk.
                // swift-format-ignore: ReplaceForEachWithForLoop
                span.attributes.forEach { key, value in values.append("\(key)=\(value)") }
                for value in values {
                    #expect(!forbidden.contains { value.contains($0) }, "\(span.operationName) carries \(value)")
                }
            }
        }
    }
}
