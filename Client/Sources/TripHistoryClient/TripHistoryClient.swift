import Foundation
import HTTPTypes
import OpenAPIRuntime
import OpenAPIURLSession

/// The trip history API in the app's words: pages and trips of a rider, one trip, the changes feed, typed
/// errors, retries.
///
/// Every call asks the token provider for a token, turns problem responses into `TripHistoryError`, retries
/// recoverable failures as `retryPolicy` says, and stops as soon as its task is cancelled. The first page of
/// each list is kept with its ETag, so fetching it again costs the service a `304` when nothing changed.
public struct TripHistoryClient: Sendable {
    /// The generated client of `openapi.yaml`, for operations this layer does not wrap.
    public let api: Client
    /// How recoverable failures are retried.
    public let retryPolicy: RetryPolicy
    /// The `Accept-Language` of every request (the display strings' language); the service's default when nil.
    public let acceptLanguage: String?
    private let firstPages: FirstPageStore

    /// A client of the service at `serverURL`.
    ///
    /// - Parameters:
    ///   - serverURL: the service's base URL, e.g. `https://trips.example.com`.
    ///   - tokenProvider: asked for the bearer token before every request.
    ///   - acceptLanguage: the user's languages, e.g. `fr-FR, en;q=0.5`.
    ///   - transport: the HTTP transport; URLSession's shared session when nil (FoundationNetworking off Apple
    ///     platforms). Pass `PreviewTransport` for previews, or any other `ClientTransport`.
    ///   - retryPolicy: how recoverable failures are retried.
    public init(
        serverURL: URL, tokenProvider: any TripHistoryTokenProvider, acceptLanguage: String? = nil,
        transport: (any ClientTransport)? = nil, retryPolicy: RetryPolicy = .standard
    ) {
        self.api = Client(
            serverURL: serverURL,
            configuration: Configuration(dateTranscoder: FlexibleDateTranscoder()),
            transport: transport ?? Self.defaultTransport(),
            // The problem middleware sits next to the transport, so only the network's and the service's
            // failures become `TripHistoryError`; a token provider's own error reaches the caller unchanged.
            middlewares: [
                AuthenticationMiddleware(tokens: tokenProvider),
                RequestHeadersMiddleware(acceptLanguage: acceptLanguage), ProblemMiddleware(),
            ]
        )
        self.retryPolicy = retryPolicy
        self.acceptLanguage = acceptLanguage
        self.firstPages = FirstPageStore()
    }

    /// A client whose token comes from `token`, called before every request.
    public init(
        serverURL: URL, acceptLanguage: String? = nil, transport: (any ClientTransport)? = nil,
        retryPolicy: RetryPolicy = .standard, token: @escaping @Sendable () async throws -> String
    ) {
        self.init(
            serverURL: serverURL, tokenProvider: ClosureTokenProvider(token), acceptLanguage: acceptLanguage,
            transport: transport, retryPolicy: retryPolicy)
    }

    private static func defaultTransport() -> any ClientTransport {
        URLSessionTransport()
    }

    /// One page of `rider`'s trips: the first when `cursor` is nil, else the page a `nextCursor` or
    /// `previousCursor` of an earlier page (with the same filter) leads to.
    public func page(
        rider: String, filter: TripFilter = TripFilter(), cursor: String? = nil
    ) async throws
        -> TripListPage
    {
        switch try await fetchPage(rider: rider, filter: filter, cursor: cursor, ifNoneMatch: nil) {
        case .page(let page): page
        case .notModified: throw TripHistoryError(kind: .unexpectedResponse, status: 304, retryable: false)
        }
    }

    /// The first page of `rider`'s trips, revalidated when a copy is kept: the kept page's ETag goes in
    /// `If-None-Match` and a `304` returns the kept page with `changed` false. A new page replaces the copy.
    public func firstPage(rider: String, filter: TripFilter = TripFilter()) async throws -> FirstPage {
        let key = FirstPageStore.Key(rider: rider, filter: filter, language: acceptLanguage)
        let kept = await firstPages.page(for: key)
        switch try await fetchPage(rider: rider, filter: filter, cursor: nil, ifNoneMatch: kept?.etag) {
        case .notModified:
            guard let kept else {
                throw TripHistoryError(kind: .unexpectedResponse, status: 304, retryable: false)
            }
            return FirstPage(page: kept, changed: false)
        case .page(let page):
            if page.etag != nil { await firstPages.keep(page, for: key) }
            return FirstPage(page: page, changed: true)
        }
    }

    /// Forgets the kept first pages, e.g. when the user signs out.
    public func forgetKeptPages() async {
        await firstPages.removeAll()
    }

    /// The pages of `rider`'s trips from `cursor` (the first page when nil) in `direction`, until the end:
    /// the last page has no `nextCursor` going older, no `previousCursor` going newer.
    public func pages(
        rider: String, filter: TripFilter = TripFilter(), from cursor: String? = nil,
        direction: PagingDirection = .older
    ) -> TripPages {
        TripPages(client: self, rider: rider, filter: filter, start: cursor, direction: direction)
    }

    /// The pages before or after `page`, without `page` itself: the newer ones back to the first page, or
    /// the older ones to the end.
    public func pages(
        rider: String, filter: TripFilter = TripFilter(), adjacentTo page: TripListPage, direction: PagingDirection
    ) -> TripPages {
        let cursor = direction == .older ? page.nextCursor : page.previousCursor
        return TripPages(
            client: self, rider: rider, filter: filter, start: cursor, direction: direction, empty: cursor == nil)
    }

    /// Every trip of `rider` matching `filter`, newest first, fetched a page at a time as the sequence is read.
    public func trips(rider: String, filter: TripFilter = TripFilter()) -> TripSequence {
        TripSequence(pages: pages(rider: rider, filter: filter))
    }

    /// The trip `id` of `rider`. A trip of another rider fails exactly like a missing one (`isNotFound`).
    public func trip(rider: String, id: String, timeZone: String? = nil) async throws -> Trip {
        let output = try await call {
            try await api.getRiderTrip(
                path: .init(riderId: rider, tripId: id),
                query: .init(tz: timeZone)
            )
        }
        switch output {
        case .ok(let ok): return try ok.body.json
        case .undocumented(let status, _):
            throw TripHistoryError(kind: .unexpectedResponse, status: status, retryable: false)
        default:
            throw TripHistoryError(kind: .unexpectedResponse, retryable: false, detail: "\(output)")
        }
    }

    enum PageResult {
        case page(TripListPage)
        case notModified
    }

    func fetchPage(
        rider: String, filter: TripFilter, cursor: String?, ifNoneMatch: String?
    ) async throws
        -> PageResult
    {
        let output = try await call {
            try await RequestHeadersMiddleware.$ifNoneMatch.withValue(ifNoneMatch) {
                try await api.listRiderTrips(
                    path: .init(riderId: rider),
                    query: .init(
                        limit: filter.pageSize, cursor: cursor, from: filter.from?.text, to: filter.to?.text,
                        tz: filter.timeZone, status: filter.status)
                )
            }
        }
        switch output {
        case .ok(let ok):
            let body = try ok.body.json
            return .page(
                TripListPage(
                    trips: body.data, nextCursor: body.page.nextCursor, previousCursor: body.page.prevCursor,
                    etag: ok.headers.eTag, requestedFrom: body.filter.from, requestedBefore: body.filter.to))
        case .notModified:
            return .notModified
        case .undocumented(let status, _):
            throw TripHistoryError(kind: .unexpectedResponse, status: status, retryable: false)
        default:
            // Error statuses never get here: ProblemMiddleware throws them first.
            throw TripHistoryError(kind: .unexpectedResponse, retryable: false, detail: "\(output)")
        }
    }

    /// Runs one operation with the retry policy, unwrapping the generated client's errors into
    /// `TripHistoryError` (or `CancellationError` when the task was cancelled).
    func call<Output: Sendable>(_ operation: () async throws -> Output) async throws -> Output {
        var attempt = 1
        while true {
            try Task.checkCancellation()
            do {
                return try await Self.unwrapped(operation)
            } catch let error as TripHistoryError {
                guard let delay = retryPolicy.delay(before: attempt + 1, after: error) else { throw error }
                try await retryPolicy.sleep(delay)
                attempt += 1
            }
        }
    }

    private static func unwrapped<Output>(_ operation: () async throws -> Output) async throws -> Output {
        do {
            return try await operation()
        } catch let error as ClientError {
            if let known = error.underlyingError as? TripHistoryError { throw known }
            if error.underlyingError is CancellationError || Task.isCancelled { throw CancellationError() }
            // Without a response the failure happened before the request left, in the token provider.
            if error.response == nil { throw error.underlyingError }
            // The answer could not be decoded as the API describes it.
            throw TripHistoryError(
                kind: .unexpectedResponse, status: error.response?.status.code, retryable: false,
                requestID: error.response?.headerFields[.requestID],
                detail: String(describing: error.underlyingError))
        }
    }
}

extension HTTPField.Name {
    /// `X-Request-ID`, the id every response carries.
    static let requestID = HTTPField.Name("X-Request-ID")!
}
