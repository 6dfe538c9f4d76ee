import Foundation
import HTTPTypes
import HummingbirdTesting
import InMemoryTracing
import NIOCore
import Synchronization
import Testing
import Tracing
import TripHistoryAPI
import TripHistoryApp
import TripHistoryData
import TripHistoryDataTestSupport
import TripHistoryDomain
import TripHistoryFakes
import TripHistoryHTTP
import TripHistoryTestSupport

/// Traces through the whole stack, HTTP to PostgreSQL: each statement a request runs is a span under the
/// request's, whichever thread ran it, an export's batches are spans under it too, the change listener's work
/// is traced in root spans, and no span carries a bound value.
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

    /// Records an issue for each span in `spans` whose name or attributes hold one of `forbidden`.
    private static func expectNone(of forbidden: [String], in spans: [FinishedInMemorySpan]) {
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

    @Test func statementsAreSpansUnderTheirRequestAndCarryNoBoundValues() async throws {
        let tracer = W3CInMemoryTracer()
        try await DataTestDatabase.withPool(size: 4, tracer: tracer) { pool in
            let api = await TestAPI(
                repository: PostgresTripRepository(pool: pool),
                analystRepository: InMemoryAnalystTripRepository(trips: []),
                settings: {
                    $0.tracer = tracer
                })
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
            Self.expectNone(of: [String(rider.rawValue), String(distance), "Bearer"], in: spans)
        }
    }

    @Test func anExportsBatchesAreSpansUnderItsRequestWithTheirStatementsUnderThem() async throws {
        let tracer = W3CInMemoryTracer()
        try await DataTestDatabase.withPool(size: 4, tracer: tracer) { pool in
            let rider = DataTestDatabase.randomRiderID()
            let repository = PostgresTripRepository(pool: pool)
            for hour in 0..<5 {
                let requestedAt = InMemoryAnalystFixtures.start.addingTimeInterval(Double(hour) * 3600)
                _ = try await repository.record(
                    InMemoryAnalystFixtures.newTrip(rider: rider.rawValue, city: "Paris", requestedAt: requestedAt),
                    idempotency: nil)
            }
            let api = await TestAPI(
                repository: repository, analystRepository: PostgresAnalystTripRepository(pool: pool),
                settings: {
                    $0.exportBatchSize = 2
                    $0.tracer = tracer
                })
            let headers = API.bearer(try await api.analystToken()).merging([.accept: "application/x-ndjson"])
            try await api.test { client in
                try await client.execute(
                    uri: "/v1/trips?from=2026-01-01&to=2026-03-01&rider_id=\(rider)", method: .get, headers: headers
                ) { response in
                    #expect(response.status == .ok)
                    #expect(String(buffer: response.body).split(separator: "\n").count == 5)
                }
            }
            let spans = tracer.finishedSpans
            let request = try #require(spans.first { $0.kind == .server })
            let batches = spans.filter { $0.operationName == "export.batch" }
            #expect(batches.count == 3)
            #expect(batches.allSatisfy { $0.parentSpanID == request.spanID })
            let rows = batches.map { $0.attributes["trip_history.export.batch.rows"]?.toSpanAttribute() }
            #expect(rows == [2, 2, 1])
            for batch in batches {
                #expect(spans.contains { $0.kind == .client && $0.parentSpanID == batch.spanID })
            }
            // The rider filtered on is a bound value.
            Self.expectNone(of: [String(rider.rawValue)], in: spans)
        }
    }

    /// Records which of its handlers a change listener ran.
    final class ListenerEvents: Sendable {
        private let counts = Mutex([String: Int]())
        func record(_ event: String) { counts.withLock { $0[event, default: 0] += 1 } }
        func count(_ event: String) -> Int { counts.withLock { $0[event] ?? 0 } }
    }

    /// Has a listening listener handle a change of `rider` and a barrier, then lose its connection and listen
    /// again; returns once every span of it has ended. (A change of every rider would also empty the caches of
    /// the suites running beside this one.)
    private static func notifyAndReconnect(
        pool: PostgresConnectionPool, rider: RiderID, applicationName: String, barrierChannel: String,
        events: ListenerEvents, tracer: W3CInMemoryTracer
    ) async throws {
        try await CacheOnPostgresTests.eventually("the listener listens") { events.count("listening") == 1 }
        _ = try await PostgresTripRepository(pool: pool).record(
            dataTestTrip(rider: rider, requestedAtMicros: 1_780_000_000_000_000), idempotency: nil)
        try await pool.withConnection { connection in
            try connection.execute(unsafeSQL: "NOTIFY \(barrierChannel), 'barrier-1'")
        }
        try await CacheOnPostgresTests.eventually("the notifications are handled") {
            events.count("rider") == 1 && events.count("barrier") == 1
        }
        try await pool.withConnection { connection in
            _ = try connection.query(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = \(applicationName)"
            ).count
        }
        try await CacheOnPostgresTests.eventually("the listener listens again") { events.count("listening") == 2 }
        // A span ends once its handler has returned.
        try await CacheOnPostgresTests.eventually("the spans end") {
            tracer.finishedSpans.filter { $0.operationName == "changes.resume" }.count == 2
        }
    }

    @Test func theChangeListenersNotificationsAndResumesAreRootSpansWithoutTheRider() async throws {
        let tracer = W3CInMemoryTracer()
        try await DataTestDatabase.withPool(size: 2) { pool in
            let rider = DataTestDatabase.randomRiderID()
            let applicationName = "trip-history-test-listener-\(UInt32.random(in: 0...UInt32.max))"
            let barrierChannel = "trip_history_barrier_test_\(UInt32.random(in: 0...UInt32.max))"
            let events = ListenerEvents()
            let listener = PostgresChangeListener(
                connectionString: try DataTestDatabase.connectionString(), applicationName: applicationName,
                logger: DataTestDatabase.logger, onListening: { events.record("listening") }, onDisconnected: {},
                onChange: { riderID in
                    // Other suites' writes are announced on the same database: only this test's count.
                    if riderID == rider { events.record("rider") }
                },
                barrierChannel: barrierChannel, onBarrier: { _ in events.record("barrier") }, tracer: tracer)
            let listening = Task { try await listener.run() }
            do {
                try await Self.notifyAndReconnect(
                    pool: pool, rider: rider, applicationName: applicationName, barrierChannel: barrierChannel,
                    events: events, tracer: tracer)
            } catch {
                listening.cancel()
                _ = try? await listening.value
                throw error
            }
            listening.cancel()
            _ = try? await listening.value
            let spans = tracer.finishedSpans
            #expect(spans.allSatisfy { $0.parentSpanID == nil })
            let invalidations = spans.filter { $0.operationName == "changes.invalidate" }
            #expect(invalidations.allSatisfy { $0.kind == .consumer })
            #expect(
                invalidations.allSatisfy {
                    $0.attributes["trip_history.changes.channel"]?.toSpanAttribute() == "trip_history_changes"
                })
            let scopes = invalidations.map { $0.attributes["trip_history.changes.scope"]?.toSpanAttribute() }
            #expect(scopes.contains("rider") && scopes.allSatisfy { $0 == "rider" || $0 == "all" })
            let barrier = try #require(spans.first { $0.operationName == "changes.barrier" })
            #expect(barrier.attributes["trip_history.changes.channel"]?.toSpanAttribute() == .string(barrierChannel))
            let resumes = spans.filter { $0.operationName == "changes.resume" }
            #expect(
                resumes.map { $0.attributes["trip_history.changes.reconnect"]?.toSpanAttribute() } == [false, true])
            Self.expectNone(of: [String(rider.rawValue), "barrier-1"], in: spans)
        }
    }
}
