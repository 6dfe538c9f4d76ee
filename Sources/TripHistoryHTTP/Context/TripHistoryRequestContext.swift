public import Hummingbird
import Logging
import TripHistoryAPI

/// Per-request state: the request id every response and log line carries.
public struct TripHistoryRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The client's `X-Request-ID` when it sent a usable one, else one generated here.
    public var requestID: String

    public init(source: Source) {
        coreContext = .init(source: source)
        requestID = ""
    }
}
