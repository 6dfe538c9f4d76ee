import Foundation
public import Synchronization
public import TripHistoryDomain

/// An `AnalystTripRepository` over a list of trips (its own, or a live view of an `InMemoryTripRepository`).
/// Reads are written the naive way (filter everything, sort everything, group with a calendar) so that it is an
/// independent model of the PostgreSQL queries.
public final class InMemoryAnalystTripRepository: AnalystTripRepository {
    private let source: @Sendable () -> [Trip]
    private let state = Mutex(State())

    private struct State {
        var queries: [AnalystTripQuery] = []
        var gated = false
        var waiting: [CheckedContinuation<Void, Never>] = []
        var changes: [(position: AnalystChangePosition, change: TripChange)] = []
    }

    /// When set, every call throws it: simulates a store that is down or a query that timed out.
    public let failure: Mutex<(any Error & Sendable)?> = Mutex(nil)

    public init(trips: [Trip]) {
        source = { trips }
    }

    /// Reads whatever `repository` holds at the time of each call.
    public init(viewing repository: InMemoryTripRepository) {
        source = { repository.allTrips }
    }

    /// Appends `change` to the analysts' feed, as the change of a transaction of its own after every earlier one.
    public func logChange(_ change: TripChange, riderID: RiderID) {
        state.withLock { state in
            let position = AnalystChangePosition(
                transaction: UInt64(state.changes.count + 1), riderID: riderID.rawValue, sequence: 1)
            state.changes.append((position, change))
        }
    }

    public func changes(after position: AnalystFeedPosition, limit: Int) async throws -> AnalystChangePage {
        if let failure = failure.withLock({ $0 }) { throw failure }
        guard case .node(let position) = position else { throw TripHistoryError.feedTopologyChanged }
        let later = state.withLock { $0.changes }.filter { $0.position > position }
        let page = later.prefix(limit)
        return AnalystChangePage(
            changes: page.map(\.change), next: .node(page.last?.position ?? position), hasMore: later.count > limit)
    }

    public func currentChangePosition() async throws -> AnalystFeedPosition {
        if let failure = failure.withLock({ $0 }) { throw failure }
        let count = state.withLock { $0.changes.count }
        return .node(AnalystChangePosition(transaction: UInt64(count + 1), riderID: 0, sequence: 0))
    }

    /// The list reads served so far, in order.
    public var queries: [AnalystTripQuery] { state.withLock { $0.queries } }

    /// While closed, every list read after the first and every stats read waits until `openGate()`: holds
    /// exports and stats queries open in tests.
    public func closeGate() {
        state.withLock { $0.gated = true }
    }

    public func openGate() {
        let waiting = state.withLock { state in
            state.gated = false
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }

    /// Returns at once while the gate is open, else once it opens.
    private func waitAtGate() async {
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state in
                guard state.gated else { return true }
                state.waiting.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    /// Reads waiting at the gate right now.
    public var waitingAtGate: Int { state.withLock { $0.waiting.count } }

    public func trips(matching query: AnalystTripQuery) async throws -> [Trip] {
        if let failure = failure.withLock({ $0 }) { throw failure }
        let mustWait = state.withLock { state in
            state.queries.append(query)
            return state.gated && query.position != nil
        }
        if mustWait { await waitAtGate() }
        let newestFirst = source().filter { query.filter.matches($0) }.sorted { TripKey($0) > TripKey($1) }
            .map { query.includesLedger ? Self.withLedger($0) : $0 }
        guard let position = query.position else { return Array(newestFirst.prefix(query.fetchLimit)) }
        switch position.direction {
        case .older:
            return Array(newestFirst.filter { TripKey($0) < position.key }.prefix(query.fetchLimit))
        case .newer:
            return Array(newestFirst.reversed().filter { TripKey($0) > position.key }.prefix(query.fetchLimit))
        }
    }

    /// A trip as PostgreSQL reads it with its ledger: the receipt's breakdown alone and the adjustments.
    private static func withLedger(_ trip: Trip) -> Trip {
        Trip(
            id: trip.id, riderID: trip.riderID, details: trip.details, lifecycle: trip.lifecycle,
            receipt: TripReceipt(breakdown: trip.receipt.breakdown), adjustments: trip.adjustments ?? [])
    }

    /// Counts every matching trip; a planned count is the same number, marked as planned.
    public func count(matching filter: AnalystTripFilter, mode: TripCountMode) async throws -> TripCount {
        if let failure = failure.withLock({ $0 }) { throw failure }
        return TripCount(value: Int64(source().filter { filter.matches($0) }.count), accuracy: mode)
    }

    public func stats(matching query: TripStatsQuery) async throws -> [TripStatsBucket] {
        if let failure = failure.withLock({ $0 }) { throw failure }
        await waitAtGate()
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = TimeZone(identifier: query.timeZone)!
        let component: Calendar.Component
        switch query.granularity {
        case .day: component = .day
        case .week: component = .weekOfYear
        case .month: component = .month
        }
        struct Group: Hashable {
            let start: Date
            let dimensionValue: String?
        }
        func value(of trip: Trip) -> String? {
            switch query.dimension {
            case nil: nil
            case .city: trip.details.city
            case .product: trip.details.product
            }
        }
        let groups = Dictionary(grouping: source().filter { query.filter.matches($0) }) { trip in
            Group(
                start: calendar.dateInterval(of: component, for: trip.requestedAt)!.start,
                dimensionValue: value(of: trip))
        }
        // Values in byte order, as PostgreSQL's `COLLATE "C"` sorts them.
        let ordered = groups.keys.sorted { left, right in
            left.start != right.start
                ? left.start < right.start
                : Array((left.dimensionValue ?? "").utf8).lexicographicallyPrecedes(
                    Array((right.dimensionValue ?? "").utf8))
        }
        return ordered.prefix(TripStatsQuery.maximumBuckets + 1).map { group in
            let trips = groups[group]!
            let completed = trips.filter { $0.status == .completed }
            var fares: [CurrencyCode: Int64] = [:]
            var tips: [CurrencyCode: Int64] = [:]
            var refunds: [CurrencyCode: Int64] = [:]
            for trip in trips {
                let currency = trip.details.fare.currency
                fares[currency, default: 0] += trip.details.fare.amountMinor
                tips[currency, default: 0] += trip.lifecycle.totals.tipsMinor
                refunds[currency, default: 0] += trip.lifecycle.totals.refundsMinor
            }
            return TripStatsBucket(
                start: group.start, dimensionValue: group.dimensionValue, trips: Int64(trips.count),
                completed: Int64(completed.count),
                canceled: Int64(trips.count - completed.count), fareTotals: fares, tipTotals: tips,
                refundTotals: refunds,
                distanceMeters: trips.reduce(0) { $0 + $1.details.distanceMeters },
                completedDurationSeconds: completed.reduce(0) { $0 + $1.details.durationSeconds }
            )
        }
    }
}
