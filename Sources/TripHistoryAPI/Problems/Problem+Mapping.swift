public import Logging
import NIOCore
import TripHistoryDomain

extension Problem {
    /// The problem any error of a request becomes, whichever layer threw it: problems as they are, use case
    /// failures by kind, a broken field rule as a 422 naming the field, an over-long body as a 413. Anything
    /// else is logged with the request's logger and answered with a bare 500, so nothing internal leaks.
    public init(mapping error: any Error, logger: Logger) {
        switch error {
        case let problem as Problem:
            self = problem
        case let error as TripHistoryError:
            self = Problem(error)
        case let error as ValidationError:
            self = .invalidField(error.field, "\(error.field) \(error.reason).")
        case is NIOTooManyBytesError:
            self = .payloadTooLarge(limit: TripRoutesLimits.maximumBodyBytes)
        default:
            logger.error("request failed", metadata: ["error": "\(String(reflecting: error))"])
            self = .internal
        }
    }

    /// The problem a use case failure becomes.
    init(_ error: TripHistoryError) {
        switch error {
        case .notFound: self = .notFound
        case .forbidden: self = .forbidden
        case .idempotencyKeyReused: self = .idempotencyKeyReused
        case .conflict: self = .conflict
        case .riderErased: self = .riderErased
        case .preconditionFailed: self = .preconditionFailed
        case .changesPurged: self = .syncTokenPurged
        case .feedTopologyChanged: self = .syncTokenTopologyChanged
        case .unavailable(let seconds): self = .unavailable(retryAfterSeconds: seconds)
        }
    }
}
