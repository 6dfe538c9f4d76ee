import Synchronization
import TripHistoryDomain

/// What each rider's reads must see, against what the reader has replayed. The change listener reports each
/// committed trip's rider with a WAL position at or past its commit (`changeCommitted(riderID:at:)`), the lag
/// sampler the reader's replay position (`replicaSampled(replayed:)`). Requirements are dropped once replayed;
/// past `maximumTrackedRiders` a new one raises a floor that applies to every rider instead.
final class ReadYourWrites: Sendable {
    private struct State {
        var requirements: [RiderID: WALPosition] = [:]
        /// A requirement of every rider: raised when the feed (re)starts, by a notification without a rider,
        /// and when there are too many riders to track.
        var floor = WALPosition.end
        /// The reader's replay position at the last successful sample; nil while the reader is down.
        var replayed: WALPosition?

        /// Requires every rider's reads to see `position`; `.end` (no floor) is replaced, not compared.
        mutating func raiseFloor(to position: WALPosition) {
            floor = floor == .end ? position : max(floor, position)
        }
    }

    private let state = Mutex(State())
    private let maximumTrackedRiders: Int

    init(maximumTrackedRiders: Int) {
        self.maximumTrackedRiders = max(maximumTrackedRiders, 1)
    }

    /// Whether the last sample reached the reader.
    var isReaderUp: Bool { state.withLock { $0.replayed != nil } }

    /// Why no rider read may go to the reader now: it is down, or no standby (a `prefer-standby` URL that
    /// fell back to a primary has no replay position to check); nil when the reader is a standby that answers.
    var readerUnusable: ReadRoutingMetrics.Reason? {
        switch state.withLock({ $0.replayed }) {
        case nil: .readerDown
        case .end?: .readerNotStandby
        default: nil
        }
    }

    /// The replay position the reader connection serving a read of `riderID` must have reached: the last
    /// sample's, when it covers the rider's requirement and the floor; nil when it does not. The sample's
    /// position, not only the rider's requirement, because the sample drops the requirements it satisfies, and
    /// a connection on another, lagging standby than the sampler's must not pass for having replayed anything.
    func requiredReplay(for riderID: RiderID) -> WALPosition? {
        state.withLock { state in
            guard let replayed = state.replayed else { return nil }
            var required = state.floor
            if let rider = state.requirements[riderID] { required = max(required, rider) }
            return replayed >= required ? replayed : nil
        }
    }

    /// The last sample's replay position (`.end` for a server not in recovery), nil while the reader is down.
    var sampledReplay: WALPosition? { state.withLock { $0.replayed } }

    /// The last sampled replay position while the reader is an answering standby, else nil.
    var standbyReplayed: WALPosition? {
        state.withLock { state in state.replayed == .end ? nil : state.replayed }
    }

    /// A trip of `riderID` committed at or before `position`; nil for "any rider".
    func changeCommitted(riderID: RiderID?, at position: WALPosition) {
        state.withLock { state in
            guard let riderID else {
                state.raiseFloor(to: position)
                return
            }
            if state.requirements[riderID] == nil && state.requirements.count >= maximumTrackedRiders {
                state.raiseFloor(to: position)
            } else {
                state.requirements[riderID] = max(state.requirements[riderID] ?? .zero, position)
            }
        }
    }

    /// The reader's replay position (`.end` for a server not in recovery), or nil when it cannot be reached.
    /// Drops the requirements it satisfies.
    func replicaSampled(replayed: WALPosition?) {
        state.withLock { state in
            state.replayed = replayed
            guard let replayed else { return }
            if state.floor != .end && state.floor <= replayed { state.floor = .zero }
            if !state.requirements.isEmpty { state.requirements = state.requirements.filter { $0.value > replayed } }
        }
    }
}
