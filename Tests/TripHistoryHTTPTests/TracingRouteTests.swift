import CoreMetrics
import HTTPTypes
import HummingbirdTesting
import InMemoryTracing
import Logging
import NIOCore
import Synchronization
import Testing
import Tracing
import TripHistoryAPI
import TripHistoryApp
import TripHistoryCache
import TripHistoryDomain
import TripHistoryFakes
import TripHistoryHTTP
import TripHistoryTestSupport

/// Request spans on both paths (router and early-read handler): an incoming `traceparent` is continued, the
/// response names the trace in `traceresponse`, and the span carries the route, status, role and cache outcome.
@Suite struct TracingRouteTests {
    typealias API = TestAPI<InMemoryTripRepository>

    static let traceParent = HTTPField.Name("traceparent")!
    static let incomingTrace = "4bf92f3577b34da6a3ce929d0e0e4736"
    static let incomingSpan = "00f067aa0ba902b7"

    private static func tracedAPI(_ tracer: W3CInMemoryTracer, cache: Bool = false) async -> API {
        await TestAPI(
            repository: InMemoryTripRepository(trips: TripFixtures.history(riderID: 1, count: 3)),
            analystRepository: InMemoryAnalystTripRepository(trips: []),
            settings: {
                $0.cache = cache ? TripResponseCache(metricsFactory: NOOPMetricsHandler.instance) : nil
                $0.tracer = tracer
            })
    }

    private static func headers(token: String) -> HTTPFields {
        var headers = API.bearer(token)
        headers[traceParent] = "00-\(incomingTrace)-\(incomingSpan)-01"
        return headers
    }

    private static func serverSpans(_ tracer: W3CInMemoryTracer) -> [FinishedInMemorySpan] {
        tracer.finishedSpans.filter { $0.kind == .server }
    }

    @Test func theRouterContinuesTheIncomingTraceAndNamesItInTheResponse() async throws {
        let tracer = W3CInMemoryTracer()
        let api = await Self.tracedAPI(tracer)
        let headers = Self.headers(token: try await api.riderToken(1))
        let traceResponse = try await api.test { client in
            try await client.execute(uri: "/v1/riders/1/trips", method: .get, headers: headers) { response in
                #expect(response.status == .ok)
                return try #require(response.headers[RequestTracing.traceResponseField])
            }
        }
        let span = try #require(Self.serverSpans(tracer).first)
        #expect(traceResponse == "00-\(Self.incomingTrace)-\(span.spanID)-01")
        #expect(span.traceID == Self.incomingTrace && span.parentSpanID == Self.incomingSpan)
        #expect(span.operationName == "GET /v1/riders/{rider_id}/trips")
        #expect(span.attributes["http.route"]?.toSpanAttribute() == "/v1/riders/{rider_id}/trips")
        #expect(span.attributes["http.response.status_code"]?.toSpanAttribute() == 200)
        #expect(span.attributes["http.request.method"]?.toSpanAttribute() == "GET")
        #expect(span.attributes[RequestSpanAttribute.role]?.toSpanAttribute() == "rider")
    }

    @Test func aRequestWithoutATraceStartsOneAndProblemsAreTracedToo() async throws {
        let tracer = W3CInMemoryTracer()
        let api = await Self.tracedAPI(tracer)
        try await api.test { client in
            try await client.execute(uri: "/v1/riders/1/trips", method: .get) { response in
                #expect(response.status == .unauthorized)
                let value = try #require(response.headers[RequestTracing.traceResponseField])
                #expect(value.split(separator: "-").count == 4 && !value.contains(Self.incomingTrace))
            }
        }
        let span = try #require(Self.serverSpans(tracer).first)
        #expect(span.parentSpanID == nil)
        #expect(span.attributes["http.response.status_code"]?.toSpanAttribute() == 401)
    }

    @Test func theEarlyReadHandlerTracesWarmHitsAndComputedReadsThroughTheSameSpans() async throws {
        let tracer = W3CInMemoryTracer()
        let api = await Self.tracedAPI(tracer, cache: true)
        let headers = Self.headers(token: try await api.riderToken(1))
        // The router verifies the token first; after that the handler answers: computed, then a warm hit.
        let answers = AnswerLog()
        try await api.testLive(onEarlyAnswer: answers.record) { client in
            for uri in ["/v1/riders/1/trips", "/v1/riders/1/trips?limit=2", "/v1/riders/1/trips?limit=2"] {
                try await client.execute(uri: uri, method: .get, headers: headers) { response in
                    #expect(response.status == .ok)
                    let value = try #require(response.headers[RequestTracing.traceResponseField])
                    #expect(value.contains(Self.incomingTrace))
                }
            }
        }
        #expect(answers.kinds == ["computed", "stored"])
        let spans = Self.serverSpans(tracer)
        #expect(spans.count == 3)
        #expect(spans.allSatisfy { $0.traceID == Self.incomingTrace && $0.parentSpanID == Self.incomingSpan })
        #expect(spans.allSatisfy { $0.attributes["http.route"]?.toSpanAttribute() == "/v1/riders/{rider_id}/trips" })
        let outcomes = spans.map { $0.attributes[RequestSpanAttribute.cacheOutcome]?.toSpanAttribute() }
        #expect(outcomes == ["miss", "miss", "hit"])
        #expect(spans.allSatisfy { $0.attributes[RequestSpanAttribute.role]?.toSpanAttribute() == "rider" })
        // The computed read's cache lookup and computation are children of its request span.
        let computed = spans[1]
        let lookup = try #require(
            tracer.finishedSpans.first { $0.operationName == "cache.lookup" && $0.parentSpanID == computed.spanID })
        #expect(
            tracer.finishedSpans.contains { $0.operationName == "trips.compute" && $0.parentSpanID == lookup.spanID })
    }

    /// Each read of a streamed export is a span under its request's, the reads after that span ended too: one
    /// per full batch and one for the short (or empty) batch that ends the export.
    @Test(arguments: [(trips: 7, batchSize: 3), (trips: 6, batchSize: 3), (trips: 0, batchSize: 4)])
    func eachBatchAnExportReadsIsASpanUnderItsRequest(trips count: Int, batchSize: Int) async throws {
        let tracer = W3CInMemoryTracer()
        let trips = InMemoryAnalystFixtures.mixed(count: count)
        let api = await TestAPI(
            repository: InMemoryTripRepository(trips: trips),
            analystRepository: InMemoryAnalystTripRepository(trips: trips),
            settings: {
                $0.exportBatchSize = batchSize
                $0.tracer = tracer
            })
        let headers = API.bearer(try await api.analystToken()).merging([.accept: "text/csv"])
        try await api.test { client in
            try await client.execute(uri: "/v1/trips?from=2026-01-01&to=2026-03-01", method: .get, headers: headers) {
                response in
                #expect(response.status == .ok)
                #expect(parseCSV(String(buffer: response.body)).count == count + 1)
            }
        }
        let request = try #require(Self.serverSpans(tracer).first)
        let batches = tracer.finishedSpans.filter { $0.operationName == "export.batch" }
        #expect(batches.allSatisfy { $0.parentSpanID == request.spanID && $0.traceID == request.traceID })
        let reads = count / batchSize + 1
        let indexes = batches.map { $0.attributes["trip_history.export.batch.index"]?.toSpanAttribute() }
        #expect(indexes == (0..<reads).map { .int64(Int64($0)) })
        let rows = batches.map { $0.attributes["trip_history.export.batch.rows"]?.toSpanAttribute() }
        let expectedRows = (0..<reads).map { min(batchSize, count - $0 * batchSize) }
        #expect(rows == expectedRows.map { .int64(Int64($0)) })
    }

    @Test func withoutATracerNoResponseNamesATrace() async throws {
        let api = await TestAPI(repository: InMemoryTripRepository(trips: TripFixtures.history(riderID: 1, count: 1)))
        let headers = Self.headers(token: try await api.riderToken(1))
        try await api.testLive { client in
            for _ in 0..<2 {
                try await client.execute(uri: "/v1/riders/1/trips", method: .get, headers: headers) { response in
                    #expect(response.status == .ok)
                    #expect(response.headers[RequestTracing.traceResponseField] == nil)
                }
            }
        }
    }
}

/// How the early-read handler answered each request it took.
final class AnswerLog: Sendable {
    private let entries = Mutex<[String]>([])

    var kinds: [String] { entries.withLock { $0 } }

    func record(_ answer: EarlyAnswer) {
        let kind =
            switch answer {
            case .stored: "stored"
            case .computed: "computed"
            }
        entries.withLock { $0.append(kind) }
    }
}

/// A 5xx is logged with its trace id by the code that finishes every traced response.
@Suite struct TracingFailureLogTests {
    @Test func aServerErrorIsLoggedWithItsTraceIDAndTheResponseNamesIt() throws {
        let tracer = W3CInMemoryTracer()
        let tracing = RequestTracing(tracer: tracer)
        let lines = LogLines()
        let logger = Logger(label: "test") { _ in lines }
        var headers = HTTPFields()
        let span = tracing.start(HTTPRequest(method: .get, scheme: "http", authority: "localhost", path: "/v1/trips"))
        tracing.finish(
            span, route: "/v1/riders/{rider_id}/trips", status: .serviceUnavailable, headers: &headers,
            requestID: "req-1", logger: logger)
        let finished = try #require(tracer.finishedSpans.first)
        #expect(headers[RequestTracing.traceResponseField]?.contains(finished.traceID) == true)
        let line = try #require(lines.entries.first)
        #expect(line.message == "request failed" && line.level == .error)
        #expect(line.metadata["trace_id"] == .string(finished.traceID))
        #expect(line.metadata["request_id"] == "req-1")
        #expect(finished.status?.code == .error)
    }

    @Test func aSuccessIsNotLogged() {
        let tracing = RequestTracing(tracer: W3CInMemoryTracer())
        let lines = LogLines()
        var headers = HTTPFields()
        let span = tracing.start(HTTPRequest(method: .get, scheme: "http", authority: "localhost", path: "/livez"))
        tracing.finish(
            span, route: nil, status: .ok, headers: &headers, requestID: "req-2",
            logger: Logger(label: "test") { _ in lines })
        #expect(lines.entries.isEmpty)
    }
}

/// A log handler keeping what it is given, for assertions.
final class LogLines: LogHandler, Sendable {
    struct Entry: Sendable {
        let level: Logger.Level
        let message: String
        let metadata: Logger.Metadata
    }

    private let stored = Mutex<[Entry]>([])
    var entries: [Entry] { stored.withLock { $0 } }

    var metadata: Logger.Metadata {
        get { [:] }
        set {}
    }
    var logLevel: Logger.Level {
        get { .trace }
        set {}
    }
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { nil }
        set {}
    }

    func log(event: LogEvent) {
        let entry = Entry(level: event.level, message: event.message.description, metadata: event.metadata ?? [:])
        stored.withLock { $0.append(entry) }
    }
}
