extension Duration {
    /// The whole milliseconds of the duration, truncated: what libpq's and PostgreSQL's millisecond
    /// settings and `poll(2)` take, and how `serve --check-config` prints durations.
    public var wholeMilliseconds: Int {
        let (seconds, attoseconds) = components
        return Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
    }
}
