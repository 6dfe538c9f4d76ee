import Foundation
import TripHistoryClient

#if canImport(Observation)
import Observation
#endif

/// What the trip list screen shows.
public enum TripListState: Sendable, Equatable {
    /// Nothing asked yet.
    case idle
    /// The first page is on its way, nothing to show yet.
    case loading
    /// Trips to show, newest first, and whether scrolling further can load older ones.
    case loaded(trips: [Trip], canLoadMore: Bool)
    /// The rider has no trip matching the filter.
    case empty
    /// The last request failed; `canRetry` when repeating it may help (`retry()`).
    case failed(TripHistoryError, canRetry: Bool)
}

/// The "Your trips" list: first page, infinite scroll, pull-to-refresh, a date range and a status filter.
///
/// Bind a view to `state`; call `load()` when the screen appears, `loadMore()` when the last row shows,
/// `refresh()` on pull-to-refresh, and `retry()` from the error view. Changing the filter restarts paging,
/// and a page still on its way for the old filter is dropped when it arrives. Display strings come straight
/// from each trip's `display`.
///
/// Pull-to-refresh asks the rider's changes feed what happened since the first load, so it transfers only
/// the trips that changed (a `304` when none did), wherever they are in the loaded pages: see `refresh()`.
///
/// Observable (Observation), so it needs iOS 17, macOS 14, tvOS 17 or watchOS 10; the client itself and the
/// state it publishes run on earlier releases.
@available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
#if canImport(Observation)
@Observable
#endif
@MainActor
public final class TripListViewModel {
    /// What to show.
    public private(set) var state: TripListState = .idle
    /// Whether an older page is on its way (show a footer spinner); `state` keeps the trips meanwhile.
    public private(set) var isLoadingMore = false
    /// Whether a pull-to-refresh is on its way; `state` keeps the trips meanwhile.
    public private(set) var isRefreshing = false
    /// The filter of the list; change it with `setDateRange(_:)` and `setStatus(_:)`.
    public private(set) var filter: TripFilter
    /// What the last pull-to-refresh fetched and changed; nil before the first one and after a restart.
    public private(set) var lastRefresh: TripListRefreshReport?

    private let client: TripHistoryClient
    private let rider: String
    /// The trips loaded so far and the cursor to the next older page, kept while a failure is shown.
    private var trips: [Trip] = []
    private var nextCursor: String?
    /// The first page's request-time bounds as the service applied them.
    private var requestedFrom: Date?
    private var requestedBefore: Date?
    /// The changes-feed position the list is current to; nil when the feed could not be reached.
    private var sync: TripListSync?
    /// What `retry()` repeats.
    private var failedOperation: Operation?
    /// Bumped by every restart; an answer for an older generation is dropped.
    private var generation = 0
    private var inFlight: Task<Void, Never>?

    private enum Operation {
        case firstPage
        case nextPage
        case refresh
    }

    /// A list of `rider`'s trips matching `filter`, idle until `load()`.
    public init(client: TripHistoryClient, rider: String, filter: TripFilter = TripFilter()) {
        self.client = client
        self.rider = rider
        self.filter = filter
    }

    /// Loads the first page when nothing is shown or loading yet; does nothing otherwise.
    public func load() async {
        guard case .idle = state else { return }
        await run(.firstPage)
    }

    /// Loads the next older page and appends it. Does nothing while any page is loading, when the list is
    /// not showing trips, or when there is nothing older.
    public func loadMore() async {
        guard case .loaded(_, canLoadMore: true) = state, !isLoadingMore, !isRefreshing else { return }
        await run(.nextPage)
    }

    /// Brings the list up to date through the rider's changes feed, from the position taken before the first
    /// page loaded, following `has_more`: an upsert replaces the trip with the same id when its `version` is
    /// higher, or goes in its place by (`requested_at`, `id`) when it matches the filter and falls within the
    /// loaded pages (older ones come with `loadMore()`); an erased trip is dropped. Loaded pages stay, and a
    /// `304` changes nothing. `lastRefresh` says what was transferred.
    ///
    /// When the service refuses the position (too old, `410`; not its own or another rider's, `400`), the
    /// first page replaces the list and a new position is taken. When the feed could not be reached at the
    /// first load, the first page is fetched again with the kept ETag: a `304` keeps the list as it is, a new
    /// first page replaces it.
    public func refresh() async {
        switch state {
        case .idle, .loading: return
        case .failed: await retry()
        case .loaded, .empty:
            guard !isRefreshing else { return }
            // An older page still on its way would append to the list the refresh may replace: drop it.
            if isLoadingMore { dropInFlight() }
            await run(.refresh)
        }
    }

    /// Repeats what failed last; does nothing when nothing failed.
    public func retry() async {
        guard case .failed = state, let operation = failedOperation else { return }
        await run(operation)
    }

    /// Shows the trips requested in `range` (all when nil), starting over.
    public func setDateRange(_ range: TripDateRange?) async {
        var changed = filter
        changed.from = range?.from
        changed.to = range?.to
        await restart(with: changed)
    }

    /// Shows the trips that ended this way (all when nil), starting over.
    public func setStatus(_ status: TripStatus?) async {
        var changed = filter
        changed.status = status
        await restart(with: changed)
    }

    /// Stops what is loading; its answer is dropped. Call it when the screen goes away.
    public func cancel() {
        dropInFlight()
        if case .loading = state { state = .idle }
    }

    private func dropInFlight() {
        generation += 1
        inFlight?.cancel()
        inFlight = nil
        isLoadingMore = false
        isRefreshing = false
    }

    private func restart(with newFilter: TripFilter) async {
        cancel()
        filter = newFilter
        trips = []
        nextCursor = nil
        requestedFrom = nil
        requestedBefore = nil
        sync = nil
        lastRefresh = nil
        failedOperation = nil
        state = .idle
        await load()
    }

    /// Runs one operation in a task of its own, so a restart can cancel it, and applies its outcome only if
    /// no restart happened meanwhile.
    private func run(_ operation: Operation) async {
        let ticket = generation
        let fetch = TripListFetch(
            client: client, rider: rider, filter: filter, cursor: nextCursor, sync: sync, loaded: loadedTrips)
        switch operation {
        case .firstPage: state = .loading
        case .nextPage: isLoadingMore = true
        case .refresh: isRefreshing = true
        }
        if case .failed = state {
            // A retry of a next page or refresh shows the kept trips again while it runs.
            state = trips.isEmpty ? .loading : .loaded(trips: trips, canLoadMore: nextCursor != nil)
        }
        let task = Task {
            let outcome: Result<TripListAnswer, any Error>
            do {
                switch operation {
                case .firstPage: outcome = .success(try await fetch.firstPage())
                case .nextPage: outcome = .success(try await fetch.nextPage())
                case .refresh: outcome = .success(try await fetch.refresh())
                }
            } catch {
                outcome = .failure(error)
            }
            self.apply(outcome, of: operation, ticket: ticket)
        }
        inFlight = task
        await task.value
    }

    private var loadedTrips: LoadedTrips {
        LoadedTrips(
            trips: trips, hasMore: nextCursor != nil, filter: filter, requestedFrom: requestedFrom,
            requestedBefore: requestedBefore)
    }

    private func apply(_ outcome: Result<TripListAnswer, any Error>, of operation: Operation, ticket: Int) {
        // A restart (filter change, cancel) happened while this was on its way: the answer is stale.
        guard ticket == generation else { return }
        inFlight = nil
        isLoadingMore = false
        isRefreshing = false
        switch outcome {
        case .success(.first(let first, let position, let requests)):
            // On a 304 after a refresh the loaded older pages stay; otherwise the list starts over.
            if first.changed || operation == .firstPage || trips.isEmpty { show(first.page) }
            sync = position
            if operation == .refresh {
                lastRefresh = TripListRefreshReport(
                    source: .firstPage, requests: requests, tripsTransferred: first.changed ? first.page.trips.count : 0
                )
            }
            failedOperation = nil
            showTrips()
        case .success(.reloaded(let first, let position, let requests)):
            show(first.page)
            sync = position
            lastRefresh = TripListRefreshReport(
                source: .firstPage, requests: requests, tripsTransferred: first.changed ? first.page.trips.count : 0)
            failedOperation = nil
            showTrips()
        case .success(.changes(let changes, let position, let requests)):
            var loaded = loadedTrips
            let applied = loaded.apply(changes)
            trips = loaded.trips
            sync = position
            lastRefresh = TripListRefreshReport(
                source: .changes, requests: requests,
                tripsTransferred: changes.count(where: { if case .upsert = $0 { true } else { false } }),
                erasedTransferred: changes.count(where: { if case .erased = $0 { true } else { false } }),
                replaced: applied.replaced, inserted: applied.inserted, removed: applied.removed)
            failedOperation = nil
            showTrips()
        case .success(.next(let page)):
            trips += page.trips
            nextCursor = page.nextCursor
            failedOperation = nil
            showTrips()
        case .failure(let error as TripHistoryError):
            failedOperation = operation
            state = .failed(error, canRetry: error.isRecoverable)
        case .failure(is CancellationError):
            // Only `cancel()` cancels, and it bumps the generation first; nothing to show.
            return
        case .failure(let error):
            failedOperation = operation
            let wrapped = TripHistoryError(kind: .unexpectedResponse, retryable: false, detail: "\(error)")
            state = .failed(wrapped, canRetry: false)
        }
    }

    /// Starts the list over from `page`, a first page.
    private func show(_ page: TripListPage) {
        trips = page.trips
        nextCursor = page.nextCursor
        requestedFrom = page.requestedFrom
        requestedBefore = page.requestedBefore
    }

    private func showTrips() {
        state = trips.isEmpty ? .empty : .loaded(trips: trips, canLoadMore: nextCursor != nil)
    }
}
