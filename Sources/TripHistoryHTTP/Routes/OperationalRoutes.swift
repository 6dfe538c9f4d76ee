public import HTTPTypes
public import Hummingbird
import NIOCore
public import TripHistoryAPI

/// Probes for orchestrators, the API description and the metrics scrape.
public struct OperationalRoutes: Sendable {
    public typealias Context = TripHistoryRequestContext

    private let isReady: @Sendable () async -> Bool
    private let isReaderUp: (@Sendable () -> Bool)?
    private let openAPIDocument: ByteBuffer
    private let metrics: (@Sendable () -> [UInt8])?

    /// `isReady` answers whether the database is reachable and its schema current; `openAPIDocument` is the
    /// repository's `openapi.yaml`, served as is; `metrics`, when given, renders the Prometheus text
    /// exposition served at `GET /metrics`. Like the probes, `/metrics` needs no token: it reveals counts and
    /// latencies, never trip data, and belongs on a port only scrapers reach. `isReaderUp`, given when a read
    /// replica is configured, is reported in the ready body (`"reader":"ready"` or `"down"`) but does not
    /// decide readiness: reads fall back to the writer.
    public init(
        isReady: @escaping @Sendable () async -> Bool, isReaderUp: (@Sendable () -> Bool)? = nil,
        openAPIDocument: [UInt8], metrics: (@Sendable () -> [UInt8])? = nil
    ) {
        self.isReady = isReady
        self.isReaderUp = isReaderUp
        self.openAPIDocument = ByteBuffer(bytes: openAPIDocument)
        self.metrics = metrics
    }

    public func register(on router: Router<Context>) {
        router.get(RouterPath(Self.livenessPath)) { _, _ in Response(Self.alive) }
        router.get("/readyz") { _, _ in
            guard await isReady() else {
                throw Problem(
                    status: .serviceUnavailable, code: .unavailable, title: "Not ready",
                    detail: "The database is unreachable or its migrations are not current.", retryAfterSeconds: 1
                )
            }
            guard let isReaderUp else { return Response(Self.status("ready")) }
            return Response(isReaderUp() ? Self.readyWithReader : Self.readyWithoutReader)
        }
        router.get("/openapi.yaml") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/yaml"], body: .init(byteBuffer: openAPIDocument))
        }
        var paths = [Self.livenessPath, "/readyz", "/openapi.yaml"]
        if let metrics {
            router.get("/metrics") { _, _ in
                Response(
                    status: .ok,
                    headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
                    body: .init(byteBuffer: ByteBuffer(bytes: metrics()))
                )
            }
            paths.append("/metrics")
        }
        for path in paths {
            router.rejectOtherMethods(RouterPath(path), allowed: [.get])
        }
    }

    static let livenessPath = "/healthz"
    /// The liveness answer, the same bytes whether the router or the early-read handler gives it.
    static let alive = status("ok")

    /// `GET /healthz`, answered by `EarlyReadHandler` on the event loop: liveness then measures what it
    /// should (can this process still take a request off a socket and answer it?) without queueing behind
    /// every request waiting for a task thread. The router answers it the same way when the handler is absent.
    public static func livenessResponse(to head: HTTPRequest) -> StoredResponse? {
        guard head.method == .get, head.path == livenessPath else { return nil }
        return StoredResponse(route: livenessPath, response: alive)
    }

    static let readyWithReader = status("ready\",\"reader\":\"ready")
    static let readyWithoutReader = status("ready\",\"reader\":\"down")

    /// `{"status":"<value>"}`; `value` is one of this file's constants, so it needs no escaping.
    private static func status(_ value: StaticString) -> APIResponse {
        APIResponse(
            status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: .bytes(ByteBuffer(string: "{\"status\":\"\(value)\"}"))
        )
    }
}
