import TripHistoryDomain

extension Problem {
    /// Applies one of `AccessPolicy`'s rules; a refusal becomes the problem it is answered with (a 404 for
    /// another rider's trips, a 403 for a role that may not act).
    static func enforce(_ rule: () throws(TripHistoryError) -> Void) throws(Problem) {
        do {
            try rule()
        } catch {
            throw Problem(error)
        }
    }
}
