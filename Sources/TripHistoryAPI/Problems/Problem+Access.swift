import HTTPTypes
import TripHistoryDomain

extension Problem {
    /// Applies one of `AccessPolicy`'s rules and returns its grant; a refusal becomes the problem it is
    /// answered with (a 404 for another rider's trips, a 403 for a role that may not act).
    static func enforce<Grant>(_ rule: () throws(TripHistoryError) -> Grant) throws(Problem) -> Grant {
        do {
            return try rule()
        } catch {
            throw Problem(error)
        }
    }

    /// A token of the identity provider arrived before its keys could ever be fetched: the token may well be
    /// good, so the client is told to retry rather than that it is refused.
    static func identityProviderUnavailable(retryAfterSeconds: Int) -> Problem {
        Problem(
            status: .serviceUnavailable, code: .unavailable, title: "Service unavailable",
            detail: "The identity provider's signing keys could not be fetched yet; retry after the indicated delay.",
            retryAfterSeconds: retryAfterSeconds
        )
    }
}
