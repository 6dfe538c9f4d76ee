public import HTTPTypes
public import TripHistoryDomain
public import TripHistoryPresentation

/// One rider read (a page of trips, one trip, its receipt, the changes feed), declared in one file: how a
/// request for it is checked, the key its response is cached under, and how that response is computed.
/// `RiderTrips` answers every read the same way from these (the token, the cache and its fence, `ETag` and
/// `304`, spans), from the router (`answer(_:path:head:)`) and before it (`earlyAnswer(_:path:head:)`); the
/// server's route table names the operation of each read and whether it is cached and answered early.
///
/// A conforming type is the request parsed and checked, access decided; it is not generic, so answering one
/// looks up no generic metadata.
public protocol RiderRead: Sendable {
    /// Who reads which rider, as `AccessPolicy` allowed it, before any cache lookup: no stored response is
    /// ever served to a caller who could not compute it.
    var grant: RiderReadGrant { get }
    /// The negotiated language of the response.
    var locale: SupportedLocale { get }
    /// The key the response is cached under: everything its bytes depend on (`ResponseKey`).
    var cacheKey: String { get }

    /// Checks the path's ids and the request in the order their problems are reported, then access. With
    /// `forLookup`, it may leave out a check whose outcome the cache key already fixes; `completingChecks`
    /// does it before the read is computed.
    static func check<Repository>(
        _ path: RiderReadPath, head: HTTPRequest, caller: Caller, in trips: RiderTrips<Repository>, forLookup: Bool
    ) throws(Problem) -> Self

    /// The read with the checks that `check(forLookup: true)` left out done; nil when it left none out.
    func completingChecks<Repository>(in trips: RiderTrips<Repository>) throws(Problem) -> Self?

    /// Calls the use case and renders its result: the body exactly as sent, with its tag and headers.
    func render<Repository>(in trips: RiderTrips<Repository>) async throws -> CachedTripResponse
}

extension RiderRead {
    public func completingChecks<Repository>(in trips: RiderTrips<Repository>) throws(Problem) -> Self? { nil }

    var riderID: RiderID { grant.riderID }
    var caller: Caller { grant.caller }

    /// Timings (and cache hits) are shown only to the rider whose trips these are.
    var reportsTiming: Bool {
        if case .rider = grant.caller { return true }
        return false
    }
}
