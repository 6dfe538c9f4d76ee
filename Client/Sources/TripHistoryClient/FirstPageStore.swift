/// The first pages kept for revalidation, a few lists at most (the screens an app shows).
actor FirstPageStore {
    struct Key: Hashable {
        var rider: String
        var filter: TripFilter
        var language: String?
    }

    /// How many lists are kept; the least recently stored goes first.
    private static let capacity = 8
    private var pages: [Key: TripListPage] = [:]
    private var order: [Key] = []

    func page(for key: Key) -> TripListPage? {
        pages[key]
    }

    func keep(_ page: TripListPage, for key: Key) {
        order.removeAll { $0 == key }
        order.append(key)
        pages[key] = page
        while order.count > Self.capacity {
            pages[order.removeFirst()] = nil
        }
    }

    func removeAll() {
        pages = [:]
        order = []
    }
}
