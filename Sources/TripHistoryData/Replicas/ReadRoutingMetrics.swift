import Metrics

/// Why a read went where it went, counted as `trip_history_db_read_routing_total{read, target, reason}` (read:
/// `rider` or `analyst`), and how long the change-feed barrier took (`trip_history_db_barrier_seconds`), the
/// wait a rider read on a replica, and a read under strict cache coherence, pay before anything else.
struct ReadRoutingMetrics: Sendable {
    /// The reason label of a routing decision.
    enum Reason: String, CaseIterable {
        /// The reader has every trip the read must see (rider reads) or is up (analyst reads).
        case replicaReady = "replica_ready"
        /// No reader is configured.
        case noReader = "no_reader"
        /// The last sample did not reach the reader.
        case readerDown = "reader_down"
        /// The reader's server is not a standby (a prefer-standby URL that fell back to a primary).
        case readerNotStandby = "reader_not_standby"
        /// The change listener is not listening, so recent writes may be unknown here.
        case feedNotListening = "feed_not_listening"
        /// The change-feed barrier timed out or failed.
        case barrierFailed = "barrier_failed"
        /// The reader's last sampled replay position is short of the rider's last write.
        case riderNotReplayed = "rider_not_replayed"
        /// The reader connection that would have served the read was behind (its own replay check).
        case readerBehind = "reader_behind"
        /// The reader connection or pool failed; the read was retried on the writer.
        case readerFailed = "reader_failed"
    }

    /// Which kind of read was routed.
    enum Read: String, CaseIterable {
        case rider
        case analyst
    }

    private struct Key: Hashable {
        let read: Read
        let target: PostgresReadRouting.Target
        let reason: Reason
    }

    private let counters: [Key: Counter]
    let barrier: Timer

    init(factory: any MetricsFactory) {
        var counters: [Key: Counter] = [:]
        for read in Read.allCases {
            for reason in Reason.allCases {
                for target in PostgresReadRouting.Target.allCases {
                    counters[Key(read: read, target: target, reason: reason)] = Counter(
                        label: "trip_history_db_read_routing_total",
                        dimensions: [
                            ("read", read.rawValue), ("target", target.rawValue), ("reason", reason.rawValue),
                        ],
                        factory: factory)
                }
            }
        }
        self.counters = counters
        barrier = Timer(label: Self.barrierLabel, preferredDisplayUnit: .seconds, factory: factory)
    }

    static let barrierLabel = "trip_history_db_barrier_seconds"

    func count(_ read: Read, to target: PostgresReadRouting.Target, because reason: Reason) {
        counters[Key(read: read, target: target, reason: reason)]?.increment()
    }
}
