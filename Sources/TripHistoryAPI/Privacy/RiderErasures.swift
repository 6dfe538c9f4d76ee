public import HTTPTypes
public import TripHistoryCache
public import TripHistoryDomain

/// `DELETE /v1/riders/{rider_id}`: erases a rider's data for a caller with the privacy role.
public struct RiderErasures<Repository: TripRepository>: Sendable {
    private let eraseRider: EraseRider<Repository>
    private let tokens: AccessTokens
    private let cache: TripResponseCache?

    /// `cache`, when given, loses the rider's entries before the answer leaves, as after a recorded trip; the
    /// erasure's notification drops other instances' entries.
    public init(eraseRider: EraseRider<Repository>, tokens: AccessTokens, cache: TripResponseCache? = nil) {
        self.eraseRider = eraseRider
        self.tokens = tokens
        self.cache = cache
    }

    /// 204 once the erasure is committed (and replayed by the reader), for a rider with data or without: the
    /// answer tells nobody who exists. The role is checked before the path, so a caller without the privacy
    /// role learns nothing from it either.
    public func erase(riderID text: Substring?, head: HTTPRequest) async throws -> APIResponse {
        let caller = try await tokens.caller(authorization: head.headerFields.value(of: .authorization))
        let grant = try Problem.enforce { () throws(TripHistoryError) in try AccessPolicy.erase(caller: caller) }
        let riderID = try RiderTrips<Repository>.riderID(text)
        do {
            _ = try await eraseRider.execute(riderID: riderID, grant: grant)
        } catch {
            // The erasure may have committed even though this request failed.
            cache?.invalidate(riderID)
            throw error
        }
        cache?.invalidate(riderID)
        var headers = HTTPFields()
        headers[.cacheControl] = "no-store"
        return APIResponse(status: .noContent, headers: headers, body: .empty)
    }
}
