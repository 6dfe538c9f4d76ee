import TripHistoryClient

/// The changes-feed position a list is current to: the token to send next, and the entity tag of the answer
/// that gave it, sent back so that nothing new costs a `304`.
struct TripListSync: Sendable, Equatable {
    var token: String
    var etag: String?
}

/// What one operation of the list model got; the model applies it on the main actor.
enum TripListAnswer: Sendable {
    /// The first page and a feed position standing for a moment before it (nil when the feed could not be
    /// reached): the first load, or a refresh without a kept position.
    case first(FirstPage, sync: TripListSync?, requests: Int)
    /// The first page after the service refused the kept token, and a new position: the list starts over.
    case reloaded(FirstPage, sync: TripListSync?, requests: Int)
    /// An older page.
    case next(TripListPage)
    /// The changes since the kept position, oldest first, and the position after them.
    case changes([TripChange], sync: TripListSync, requests: Int)
}

/// The requests of one list operation, with everything they need copied in, so they never read the model's
/// state while they wait.
struct TripListFetch: Sendable {
    /// Feed answers followed by one refresh at most; a longer backlog goes on at the next refresh.
    static let maxChangePages = 20

    let client: TripHistoryClient
    let rider: String
    let filter: TripFilter
    /// The next cursor of the list.
    let cursor: String?
    /// The kept feed position.
    let sync: TripListSync?
    /// The list as it was when the operation started.
    let loaded: LoadedTrips

    /// A feed position for now, then the first page, so a change made while the page loads comes through the
    /// feed as well (applying it twice is harmless).
    func firstPage() async throws -> TripListAnswer {
        let sync = try await startPosition()
        let first = try await client.firstPage(rider: rider, filter: filter)
        return .first(first, sync: sync, requests: 2)
    }

    /// The page the list's next cursor leads to.
    func nextPage() async throws -> TripListAnswer {
        .next(try await client.page(rider: rider, filter: filter, cursor: cursor))
    }

    /// The changes since the kept position; the first page again when no position is kept or the service
    /// refuses it.
    func refresh() async throws -> TripListAnswer {
        guard let sync else { return try await firstPage() }
        do {
            return try await changes(since: sync)
        } catch let error as TripHistoryError where error.isSyncTokenRefused {
            let restart = try await startPosition()
            let first = try await client.firstPage(rider: rider, filter: filter)
            return .reloaded(first, sync: restart, requests: 3)
        }
    }

    /// A feed position standing for now; nil when the feed cannot be reached (a service without it, an
    /// outage), so the list still loads and its refreshes reload the first page until a position is taken.
    private func startPosition() async throws -> TripListSync? {
        do {
            guard case .page(let page) = try await client.changes(rider: rider) else { return nil }
            return TripListSync(token: page.nextSince, etag: nil)
        } catch is TripHistoryError {
            return nil
        }
    }

    /// Follows the feed from `start` while it has more, up to `maxChangePages` answers.
    private func changes(since start: TripListSync) async throws -> TripListAnswer {
        var position = start
        var changes: [TripChange] = []
        var requests = 0
        for _ in 0..<Self.maxChangePages {
            let answer = try await client.changes(rider: rider, since: position.token, ifNoneMatch: position.etag)
            requests += 1
            guard case .page(let page) = answer else { break }
            changes += page.changes
            position = TripListSync(token: page.nextSince, etag: page.etag)
            guard page.hasMore else { break }
        }
        requests += try await localizeNewTrips(&changes)
        return .changes(changes, sync: position, requests: requests)
    }

    /// The feed writes a trip's date and time in the trip's own zone. A trip the list will take and whose zone
    /// is not the filter's gets them in the filter's zone from its detail; returns the requests made.
    private func localizeNewTrips(_ changes: inout [TripChange]) async throws -> Int {
        guard let zone = filter.timeZone else { return 0 }
        var requests = 0
        var asked: Set<String> = []
        var localized: [String: Components.Schemas.TripDisplay] = [:]
        for index in changes.indices {
            guard case .upsert(var trip) = changes[index], trip.timeZone != zone, loaded.wouldInsert(trip) else {
                continue
            }
            if asked.insert(trip.id).inserted {
                requests += 1
                do {
                    localized[trip.id] = try await client.trip(rider: rider, id: trip.id, timeZone: zone).display
                } catch is TripHistoryError {
                    // Erased meanwhile, or out of reach: the trip's own zone shows until the list reloads.
                }
            }
            guard let display = localized[trip.id] else { continue }
            trip.display.date = display.date
            trip.display.time = display.time
            changes[index] = .upsert(trip)
        }
        return requests
    }
}
