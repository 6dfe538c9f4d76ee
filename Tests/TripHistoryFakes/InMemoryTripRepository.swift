public import Foundation
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
        /// The feed, in commit order (which is also write order here): (sequence, rider, change).
        var changes: [(sequence: Int64, riderID: RiderID, tripID: TripID, erased: Bool)] = []
        var nextAdjustmentID: Int64 = 1
        /// Each erased rider's last erasure: trips requested before it are refused.
        var erasures: [RiderID: Date] = [:]
    }

    private let state = Mutex(State())
    /// When set, every call throws it: simulates a store that is down.
    public let failure: Mutex<TripHistoryError?> = Mutex(nil)

    /// The clock of recorded and adjusted times.
    private let now: @Sendable () -> Date

    public init(trips: [Trip] = [], now: @escaping @Sendable () -> Date = { Date() }) {
        self.now = now
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
                .map(\.listRow)
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

    public func exportBatch(riderID: RiderID, after: TripKey?, limit: Int) async throws -> [Trip] {
        try checkFailure()
        return state.withLock { state in
            state.queryCount += 1
            return Array(
                state.trips.filter { trip in trip.riderID == riderID && (after.map { TripKey(trip) < $0 } ?? true) }
                    .sorted { TripKey($0) > TripKey($1) }.prefix(limit).map(Self.detail))
        }
    }

    /// Counts every matching trip; a planned count is the same number, marked as planned.
    public func count(riderID: RiderID, filter: TripFilter, mode: TripCountMode) async throws -> TripCount {
        try checkFailure()
        let matching = state.withLock { state in
            state.trips.filter { $0.riderID == riderID && filter.matches($0) }.count
        }
        return TripCount(value: Int64(matching), accuracy: mode)
    }

    public func trip(id: TripID, riderID: RiderID) async throws -> Trip? {
        try checkFailure()
        return state.withLock { state in
            state.queryCount += 1
            return state.trips.first { $0.id == id && $0.riderID == riderID }.map(Self.detail)
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
            if let erased = state.erasures[trip.riderID], erased > trip.details.requestedAt { throw .riderErased }
            let stored = Trip(
                id: TripID(state.nextID)!, riderID: trip.riderID, details: trip.details,
                lifecycle: .recorded(at: Timestamp.normalized(now())), receipt: trip.receipt, adjustments: [])
            state.nextID += 1
            state.trips.append(stored)
            if let slot, let idempotency { state.keys[slot] = (idempotency.fingerprint, stored.id) }
            Self.announce(stored, in: &state)
            return RecordedTrip(trip: stored, replayed: false)
        }
    }

    public func adjust(
        _ adjustment: NewAdjustment, tripID: TripID, riderID: RiderID, expectedVersion: Int?,
        idempotency: IdempotencyRequest?, check: @escaping @Sendable (Trip) throws -> Void
    ) async throws -> RecordedTrip {
        try checkFailure()
        let date = Timestamp.normalized(now())
        return try state.withLock { state in
            let slot = idempotency.map { "\($0.scope)\u{0}\($0.key)" }
            if let slot, let idempotency {
                if state.inFlightKeys.contains(slot) { throw TripHistoryError.conflict }
                if let existing = state.keys[slot] {
                    guard existing.fingerprint == idempotency.fingerprint else {
                        throw TripHistoryError.idempotencyKeyReused
                    }
                    let stored = state.trips.first { $0.id == existing.tripID }!
                    return RecordedTrip(trip: Self.detail(stored), replayed: true)
                }
            }
            guard let index = state.trips.firstIndex(where: { $0.id == tripID && $0.riderID == riderID }) else {
                throw TripHistoryError.notFound
            }
            let trip = Self.detail(state.trips[index])
            if let expectedVersion, expectedVersion != trip.lifecycle.version {
                throw TripHistoryError.preconditionFailed
            }
            try check(trip)
            let entry = Adjustment(
                id: AdjustmentID(state.nextAdjustmentID)!, kind: adjustment.kind, amountMinor: adjustment.amountMinor,
                reason: adjustment.reason, createdAt: date)
            state.nextAdjustmentID += 1
            let lifecycle = TripLifecycle(
                version: trip.lifecycle.version + 1, recordedAt: trip.lifecycle.recordedAt, updatedAt: date,
                totals: trip.lifecycle.totals.adding(adjustment.kind, adjustment.amountMinor))
            let adjusted = Trip(
                id: trip.id, riderID: trip.riderID, details: trip.details, lifecycle: lifecycle, receipt: trip.receipt,
                adjustments: (trip.adjustments ?? []) + [entry])
            state.trips[index] = adjusted
            if let slot, let idempotency { state.keys[slot] = (idempotency.fingerprint, tripID) }
            Self.announce(adjusted, in: &state)
            return RecordedTrip(trip: adjusted, replayed: false)
        }
    }

    /// Removes the rider's trips and reports each as erased in the feed, as the PostgreSQL erasure does.
    @discardableResult
    public func erase(riderID: RiderID, requestedBy: String) async throws -> RiderErasure {
        try checkFailure()
        return state.withLock { state in
            let erased = state.trips.filter { $0.riderID == riderID }
            for trip in erased {
                let sequence = Int64(state.changes.count + 1)
                state.changes.append((sequence, riderID, trip.id, true))
            }
            state.trips.removeAll { $0.riderID == riderID }
            // Their idempotency keys go with them, as by the tables' cascade.
            let erasedIDs = Set(erased.map(\.id))
            state.keys = state.keys.filter { !erasedIDs.contains($0.value.tripID) }
            let erasedAt = Timestamp.normalized(now())
            state.erasures[riderID] = erasedAt
            return RiderErasure(
                riderID: riderID, erasedAt: erasedAt, trips: erased.count,
                adjustments: erased.reduce(0) { $0 + ($1.adjustments?.count ?? 0) }, requestedBy: requestedBy)
        }
    }

    public func changes(riderID: RiderID, after position: ChangePosition?, limit: Int) async throws -> ChangePage {
        try checkFailure()
        return state.withLock { state in
            state.queryCount += 1
            let after = position?.sequence ?? 0
            let pending = state.changes.filter { $0.riderID == riderID && $0.sequence > after }
            let page = pending.prefix(limit)
            let entries: [TripChange] = page.compactMap { change in
                if change.erased { return .erased(change.tripID) }
                return state.trips.first { $0.id == change.tripID }.map { .upsert($0.listRow) }
            }
            var latest: [TripChange] = []
            for entry in entries.reversed() where !latest.contains(where: { $0.tripID == entry.tripID }) {
                latest.insert(entry, at: 0)
            }
            let next = page.last.map { ChangePosition(sequence: $0.sequence) } ?? position ?? .start
            return ChangePage(changes: latest, next: next, hasMore: pending.count > limit)
        }
    }

    public func currentChangePosition(riderID: RiderID) async throws -> ChangePosition {
        try checkFailure()
        return state.withLock { state in
            ChangePosition(sequence: state.changes.last { $0.riderID == riderID }?.sequence ?? 0)
        }
    }

    private static func announce(_ trip: Trip, in state: inout State) {
        state.changes.append((Int64(state.changes.count + 1), trip.riderID, trip.id, false))
    }

    /// A trip as a detail read returns it: with its ledger, empty when it has none.
    private static func detail(_ trip: Trip) -> Trip {
        Trip(
            id: trip.id, riderID: trip.riderID, details: trip.details, lifecycle: trip.lifecycle, receipt: trip.receipt,
            adjustments: trip.adjustments ?? [])
    }

    /// Counts a read attempt, then fails it when `failure` is set.
    private func checkFailure() throws {
        state.withLock { $0.attemptCount += 1 }
        if let failure = failure.withLock({ $0 }) { throw failure }
    }
}
