/// The database's latency histograms, whose buckets the composition root sets on the metrics backend: a
/// statement, a pool wait or the change-feed barrier usually takes well under a millisecond, below the
/// backend's usual first bucket.
public enum DatabaseLatencyHistograms {
    /// The histograms' names: statements, pool waits and the change-feed barrier.
    public static let labels = [
        PostgresStatementTimers.label, PostgresPoolMetrics.waitLabel, ReadRoutingMetrics.barrierLabel,
    ]

    /// From 50 microseconds to 10 seconds, about two and a half times apart.
    public static let buckets: [Duration] = [
        .microseconds(50), .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1),
        .microseconds(2500), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
        .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .milliseconds(2500), .seconds(5),
        .seconds(10),
    ]
}
