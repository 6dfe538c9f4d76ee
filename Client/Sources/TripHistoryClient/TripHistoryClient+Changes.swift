extension TripHistoryClient {
    /// The changes to `rider`'s trips since `since`, oldest first, at most `limit` per answer (the service's
    /// default when nil).
    ///
    /// Without `since` the page has no changes and a `nextSince` standing for now: take it before loading the
    /// list's pages, then keep it. With `ifNoneMatch`, the `etag` of the previous answer for the same token, a
    /// `304` comes back as `.notModified`: nothing changed. A token the service refuses fails with
    /// `isSyncTokenRefused` (`410 sync_token_expired`, also `isSyncTokenExpired`, or `400` for a token it did
    /// not sign or of another rider): reload the list and start again without `since`. Entries of a kind this
    /// version does not know are skipped.
    public func changes(
        rider: String, since: String? = nil, limit: Int? = nil, ifNoneMatch: String? = nil
    ) async throws -> TripChanges {
        let output = try await call {
            try await RequestHeadersMiddleware.$ifNoneMatch.withValue(ifNoneMatch) {
                try await api.listRiderTripChanges(
                    path: .init(riderId: rider), query: .init(since: since, limit: limit))
            }
        }
        switch output {
        case .ok(let ok):
            let body = try ok.body.json
            return .page(
                TripChangePage(
                    changes: try body.data.compactMap(TripChange.init(entry:)), nextSince: body.page.nextSince,
                    hasMore: body.page.hasMore, etag: ok.headers.eTag))
        case .notModified:
            return .notModified
        case .undocumented(let status, _):
            throw TripHistoryError(kind: .unexpectedResponse, status: status, retryable: false)
        default:
            // Error statuses never get here: ProblemMiddleware throws them first.
            throw TripHistoryError(kind: .unexpectedResponse, retryable: false, detail: "\(output)")
        }
    }
}

extension TripChange {
    /// The change an entry of the feed stands for; nil for a kind this version does not know. An entry of a
    /// known kind without its member (`trip`, `id`) is not what the API describes, and throws.
    init?(entry: Components.Schemas.TripChange) throws {
        guard let kind = entry.change.value1 else { return nil }
        switch kind {
        case .upsert:
            guard let trip = entry.trip else { throw Self.missing("trip", of: "upsert") }
            self = .upsert(trip)
        case .erased:
            guard let id = entry.id else { throw Self.missing("id", of: "erased") }
            self = .erased(id: id)
        }
    }

    private static func missing(_ member: String, of kind: String) -> TripHistoryError {
        TripHistoryError(
            kind: .unexpectedResponse, retryable: false, detail: "a changes entry \(kind) without \(member)")
    }
}
