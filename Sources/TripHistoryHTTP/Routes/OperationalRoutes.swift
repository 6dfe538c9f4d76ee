public import HTTPTypes
public import Hummingbird
import NIOCore
import TripHistoryAPI

/// Probes for orchestrators and the API description, answered for the route table's `health`, `readiness` and
/// `openAPIDocument`. The metrics scrape has a listener of its own (`MetricsListener`).
public struct OperationalRoutes: Sendable {
    private let isReady: @Sendable () async -> Bool
    private let isReaderUp: (@Sendable () -> Bool)?
    private let openAPIDocument: ByteBuffer

    /// `isReady` answers whether the database is reachable and its schema current; `openAPIDocument` is the
    /// repository's `openapi.yaml`, served as is. `isReaderUp`, given when a read replica is configured, is
    /// reported in the ready body (`"reader":"ready"` or `"down"`) but does not decide readiness: reads fall
    /// back to the writer.
    public init(
        isReady: @escaping @Sendable () async -> Bool, isReaderUp: (@Sendable () -> Bool)? = nil,
        openAPIDocument: [UInt8]
    ) {
        self.isReady = isReady
        self.isReaderUp = isReaderUp
        self.openAPIDocument = ByteBuffer(bytes: openAPIDocument)
    }

    /// `GET /readyz`: 200 while the database is reachable and current, with the reader's state when one is
    /// configured; a 503 problem otherwise.
    func readiness() async throws -> Response {
        guard await isReady() else {
            throw Problem(
                status: .serviceUnavailable, code: .unavailable, title: "Not ready",
                detail: "The database is unreachable or its migrations are not current.", retryAfterSeconds: 1
            )
        }
        guard let isReaderUp else { return Response(Self.status("ready")) }
        return Response(isReaderUp() ? Self.readyWithReader : Self.readyWithoutReader)
    }

    /// `GET /openapi.yaml`: the document as it is.
    func document() -> Response {
        Response(status: .ok, headers: [.contentType: "application/yaml"], body: .init(byteBuffer: openAPIDocument))
    }

    static let livenessPath = APIOperation.health.path
    /// The liveness answer, the same bytes whether the router or the early-read handler gives it.
    static let alive = status("ok")

    /// `GET /healthz`, answered by `EarlyReadHandler` on the event loop: liveness then measures what it
    /// should (can this process still take a request off a socket and answer it?) without queueing behind
    /// every request waiting for a task thread. The router answers it the same way when the handler is absent.
    public static func livenessResponse(to head: HTTPRequest) -> EarlyRead? {
        guard head.method == .get, head.path == livenessPath else { return nil }
        return EarlyRead(route: livenessPath, answer: .stored(StoredResponse(response: alive)))
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
