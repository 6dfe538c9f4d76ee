/// The pages of a rider's trips, fetched one at a time as they are read, following the cursors to the end.
///
/// Reading stops with `CancellationError` as soon as the reading task is cancelled, before another request.
public struct TripPages: AsyncSequence, Sendable {
    /// Each element is one page.
    public typealias Element = TripListPage

    let client: TripHistoryClient
    let rider: String
    let filter: TripFilter
    let start: String?
    let direction: PagingDirection
    var empty = false

    /// An iterator that fetches the first page when first asked.
    public func makeAsyncIterator() -> Iterator {
        Iterator(pages: self, cursor: empty ? .done : .next(start))
    }

    /// Reads the pages in order.
    public struct Iterator: AsyncIteratorProtocol {
        enum Position {
            case next(String?)
            case done
        }

        let pages: TripPages
        var cursor: Position

        /// The next page, or nil after the last; throws `TripHistoryError` or `CancellationError`.
        public mutating func next() async throws -> TripListPage? {
            guard case .next(let current) = cursor else { return nil }
            try Task.checkCancellation()
            let page = try await pages.client.page(rider: pages.rider, filter: pages.filter, cursor: current)
            let following = pages.direction == .older ? page.nextCursor : page.previousCursor
            cursor = following.map { .next($0) } ?? .done
            return page
        }
    }
}
