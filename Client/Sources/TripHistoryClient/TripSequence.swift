/// A rider's trips one by one, newest first, over `TripPages`.
public struct TripSequence: AsyncSequence, Sendable {
    /// Each element is one trip.
    public typealias Element = Trip

    let pages: TripPages

    /// An iterator that fetches the first page when first asked.
    public func makeAsyncIterator() -> Iterator {
        Iterator(pages: pages.makeAsyncIterator())
    }

    /// Reads the trips in order, fetching the next page when the current one is used up.
    public struct Iterator: AsyncIteratorProtocol {
        var pages: TripPages.Iterator
        var buffered: [Trip] = []
        var index = 0

        /// The next trip, or nil after the last; throws `TripHistoryError` or `CancellationError`.
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
