import Foundation
public import Synchronization
public import TripHistoryDomain

/// A `TripRepository` kept in memory, for unit tests of use cases and HTTP handlers. Its reads are written
/// the naive way (filter everything, sort everything) so that it is an independent model of the keyset
/// queries the PostgreSQL repository runs.
public final class InMemoryTripRepository: TripRepository {
    private struct State {
        var trips: [Trip] = []
        var nextID: Int64 = 1
        var keys: [String: (fingerprint: String, tripID: TripID)] = [:]
        var inFlightKeys: Set<String> = []
        var queryCount = 0
        var attemptCount = 0
    }

    private let state = Mutex(State())
    /// When set, every call throws it: simulates a store that is down.
    public let failure: Mutex<TripHistoryError?> = Mutex(nil)

    public init(trips: [Trip] = []) {
        state.withLock { state in
            state.trips = trips
            state.nextID = (trips.map(\.id.rawValue).max() ?? 0) + 1
        }
    }

    /// Reads served so far, to check what reached the store.
    public var queryCount: Int { state.withLock { $0.queryCount } }
    /// Reads attempted, those that failed with `failure` included.
    public var attemptCount: Int { state.withLock { $0.attemptCount } }

    /// Every stored trip, in insertion order.
    public var allTrips: [Trip] { state.withLock { $0.trips } }

    /// Marks an idempotency key as being processed by another request, to simulate a racing twin.
    public func holdIdempotencyKey(scope: String, key: String) {
        _ = state.withLock { $0.inFlightKeys.insert("\(scope)\u{0}\(key)") }
    }

    public func trips(matching query: TripPageQuery) async throws -> [Trip] {
        try checkFailure()
        return state.withLock { state in
            state.queryCount += 1
            let matching = state.trips.filter { $0.riderID == query.riderID && query.filter.matches($0) }
            let newestFirst = matching.sorted { TripKey($0) > TripKey($1) }
            guard let position = query.position else { return Array(newestFirst.prefix(query.fetchLimit)) }
            switch position.direction {
            case .older:
                return Array(newestFirst.filter { TripKey($0) < position.key }.prefix(query.fetchLimit))
            case .newer:
                return Array(newestFirst.reversed().filter { TripKey($0) > position.key }.prefix(query.fetchLimit))
            }
        }
    }

    public func trip(id: TripID, riderID: RiderID) async throws -> Trip? {
        try checkFailure()
        return state.withLock { state in
            state.queryCount += 1
            return state.trips.first { $0.id == id && $0.riderID == riderID }
        }
    }

    public func record(_ trip: NewTrip, idempotency: IdempotencyRequest?) async throws -> RecordedTrip {
        try checkFailure()
        return try state.withLock { state throws(TripHistoryError) in
            let slot = idempotency.map { "\($0.scope)\u{0}\($0.key)" }
            if let slot, let idempotency {
                if state.inFlightKeys.contains(slot) { throw .conflict }
                if let existing = state.keys[slot] {
                    guard existing.fingerprint == idempotency.fingerprint else { throw .idempotencyKeyReused }
                    let stored = state.trips.first { $0.id == existing.tripID }!
                    return RecordedTrip(trip: stored, replayed: true)
                }
            }
            let stored = Trip(id: TripID(state.nextID)!, riderID: trip.riderID, details: trip.details)
            state.nextID += 1
            state.trips.append(stored)
            if let slot, let idempotency { state.keys[slot] = (idempotency.fingerprint, stored.id) }
            return RecordedTrip(trip: stored, replayed: false)
        }
    }

    /// Counts a read attempt, then fails it when `failure` is set.
    private func checkFailure() throws {
        state.withLock { $0.attemptCount += 1 }
        if let failure = failure.withLock({ $0 }) { throw failure }
    }
}
