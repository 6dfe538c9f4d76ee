public import Hummingbird
public import Logging
import NIOCore

/// The Prometheus scrape, `GET /metrics`, on a listener of its own, apart from the API: it needs no token, so
/// it is served only where scrapers reach it (loopback by default), never on the port callers use.
public struct MetricsListener: Sendable {
    private let exposition: @Sendable () -> [UInt8]

    /// `exposition` renders the Prometheus text exposition, version 0.0.4.
    public init(exposition: @escaping @Sendable () -> [UInt8]) {
        self.exposition = exposition
    }

    /// `GET /metrics` and nothing else: other paths get the `404` problem and other methods the `405` one, with
    /// the request id and headers every response of the service carries.
    public func router() -> Router<TripHistoryRequestContext> {
        let router = Router(context: TripHistoryRequestContext.self, options: .autoGenerateHeadEndpoints)
        router.add(middleware: ResponseFinishingMiddleware(finisher: ResponseFinisher()))
        let exposition = self.exposition
        router.get("/metrics") { _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
                body: .init(byteBuffer: ByteBuffer(bytes: exposition()))
            )
        }
        router.rejectOtherMethods("/metrics", allowed: [.get])
        return router
    }

    /// The listener on `host`:`port`, a service to run next to the API's application.
    public func application(host: String, port: Int, logger: Logger) -> some ApplicationProtocol {
        Application(
            router: router(), configuration: .init(address: .hostname(host, port: port), serverName: nil),
            logger: logger)
    }
}
