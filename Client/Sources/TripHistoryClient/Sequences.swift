/// The pages of a rider's trips, fetched one at a time as they are read, following the cursors to the end.
///
/// Reading stops with `CancellationError` as soon as the reading task is cancelled, before another request.
public struct TripPages: AsyncSequence, Sendable {
    public typealias Element = TripListPage

    let client: TripHistoryClient
    let rider: String
    let filter: TripFilter
    let start: String?
    let direction: PagingDirection
    var empty = false

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

/// A rider's trips one by one, newest first, over `TripPages`.
public struct TripSequence: AsyncSequence, Sendable {
    public typealias Element = Trip

    let pages: TripPages

    public func makeAsyncIterator() -> Iterator {
        Iterator(pages: pages.makeAsyncIterator())
    }

    /// Reads the trips in order, fetching the next page when the current one is used up.
    public struct Iterator: AsyncIteratorProtocol {
        var pages: TripPages.Iterator
        var buffered: [Trip] = []
        var index = 0

        public mutating func next() async throws -> Trip? {
            while index == buffered.count {
                guard let page = try await pages.next() else { return nil }
                buffered = page.trips
                index = 0
            }
            try Task.checkCancellation()
            defer { index += 1 }
            return buffered[index]
        }
    }
}
