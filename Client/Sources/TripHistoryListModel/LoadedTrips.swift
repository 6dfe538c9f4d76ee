import Foundation
import TripHistoryClient

/// The trips a list holds, newest first by (`requested_at`, `id`), and how the changes feed applies to them.
///
/// The list covers every matching trip from the newest down to the last one held, and beyond it too when no
/// older page remains. An upsert replaces the trip with the same id when its `version` is higher; a trip not
/// held goes in its place when it matches the filter and falls within that range, and is left for a later
/// page otherwise. An erased id is dropped.
struct LoadedTrips: Sendable {
    /// What applying changes did to the list.
    struct Applied: Sendable, Equatable {
        /// Held trips replaced by a newer version.
        var replaced = 0
        /// Trips the list did not hold, put in their place.
        var inserted = 0
        /// Trips dropped: erased, or no longer matching the filter.
        var removed = 0
    }

    var trips: [Trip]
    /// Whether older trips than the last one held remain (the list has a next cursor).
    var hasMore: Bool
    var filter: TripFilter
    /// The filter's request-time bounds as the service applied them (`TripListPage.requestedFrom`, `...Before`).
    var requestedFrom: Date?
    var requestedBefore: Date?

    /// Applies `changes` in order.
    mutating func apply(_ changes: [TripChange]) -> Applied {
        var applied = Applied()
        for change in changes {
            switch change {
            case .erased(let id):
                let count = trips.count
                trips.removeAll { $0.id == id }
                applied.removed += count - trips.count
            case .upsert(var trip):
                if let index = trips.firstIndex(where: { $0.id == trip.id }) {
                    let held = trips[index]
                    guard trip.version > held.version else { continue }
                    guard matches(trip) != false else {
                        trips.remove(at: index)
                        applied.removed += 1
                        continue
                    }
                    // The feed writes display strings in the trip's own zone; the request time never changes,
                    // so the held date and time are still right in the filter's zone.
                    if let zone = filter.timeZone, zone != trip.timeZone {
                        trip.display.date = held.display.date
                        trip.display.time = held.display.time
                    }
                    trips[index] = trip
                    applied.replaced += 1
                } else if admits(trip) {
                    let index = trips.firstIndex { Self.isNewer(trip, than: $0) } ?? trips.endIndex
                    trips.insert(trip, at: index)
                    applied.inserted += 1
                }
            }
        }
        return applied
    }

    /// Whether `trip`, which the list does not hold, belongs in it: it matches the filter and is not older than
    /// the last trip held while older pages remain (the next page serves those).
    func admits(_ trip: Trip) -> Bool {
        guard matches(trip) == true else { return false }
        guard hasMore, let last = trips.last else { return true }
        return Self.isNewer(trip, than: last)
    }

    /// Whether the list does not hold `trip` but would take it.
    func wouldInsert(_ trip: Trip) -> Bool {
        !trips.contains { $0.id == trip.id } && admits(trip)
    }

    /// Whether `trip` matches the filter; nil when a date bound is set but the service's resolution of it is
    /// unknown (a held trip then stays, a new one waits for a reload).
    private func matches(_ trip: Trip) -> Bool? {
        if let status = filter.status, trip.outcome != .known(status) { return false }
        if filter.from != nil {
            guard let from = requestedFrom else { return nil }
            if trip.requestedAt < from { return false }
        }
        if filter.to != nil {
            guard let before = requestedBefore else { return nil }
            if trip.requestedAt >= before { return false }
        }
        return true
    }

    /// The list's order: later `requested_at` first, then the larger id.
    static func isNewer(_ trip: Trip, than other: Trip) -> Bool {
        if trip.requestedAt != other.requestedAt { return trip.requestedAt > other.requestedAt }
        // Decimal ids without leading zeros: a longer one is larger.
        if trip.id.count != other.id.count { return trip.id.count > other.id.count }
        return trip.id > other.id
    }
}
