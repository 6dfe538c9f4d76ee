import HTTPTypes
import Hummingbird
import NIOCore

/// Probes for orchestrators and the API description.
public struct OperationalRoutes: Sendable {
    public typealias Context = TripHistoryRequestContext

    private let isReady: @Sendable () async -> Bool
    private let openAPIDocument: ByteBuffer

    /// `isReady` answers whether the database is reachable and its schema current; `openAPIDocument` is the
    /// repository's `openapi.yaml`, served as is.
    public init(isReady: @escaping @Sendable () async -> Bool, openAPIDocument: [UInt8]) {
        self.isReady = isReady
        self.openAPIDocument = ByteBuffer(bytes: openAPIDocument)
    }

    public func register(on router: Router<Context>) {
        router.get("/healthz") { _, _ in Self.status("ok") }
        router.get("/readyz") { _, _ in
            guard await isReady() else {
                throw Problem(
                    status: .serviceUnavailable, code: .unavailable, title: "Not ready",
                    detail: "The database is unreachable or its migrations are not current.", retryAfterSeconds: 1
                )
            }
            return Self.status("ready")
        }
        router.get("/openapi.yaml") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/yaml"], body: .init(byteBuffer: openAPIDocument))
        }
        for path in ["/healthz", "/readyz", "/openapi.yaml"] {
            router.rejectOtherMethods(RouterPath(path), allowed: [.get])
        }
    }

    private static func status(_ value: String) -> Response {
        var writer = JSONWriter(capacity: 32)
        writer.beginObject()
        writer.field("status", value)
        writer.endObject()
        return Response(
            status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(bytes: writer.bytes))
        )
    }
}
