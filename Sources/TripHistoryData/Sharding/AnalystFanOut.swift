import TripHistoryDomain

/// The analysts' reads on the sharded topology: each the one-node statement run on every partition (or, with a
/// rider, on the rider's one), and the partitions' answers merged here into what one node answers.
enum AnalystFanOut {
    /// A keyset page: the first `limit` trips in the page's order among the partitions' own first trips (`pages`,
    /// each partition's page of at most `share` trips), or nil when that may lack a trip. Exact, since
    /// (requested_at, id) is one order over all partitions (ids are unique across them), unless a partition that
    /// returned all `share` trips asked of it (fewer than `limit`) ends before the page's last row: only such a
    /// partition can hold a trip the page lacks, and every partition is then asked again for `limit`.
    static func merge(_ pages: [[Trip]], share: Int, limit: Int, direction: KeysetDirection) -> [Trip]? {
        let ordered = ordered(pages, direction)
        if share < limit {
            let rank = Dictionary(uniqueKeysWithValues: ordered.enumerated().map { ($1.id, $0 + 1) })
            for page in pages where page.count == share {
                guard let lastRank = page.compactMap({ rank[$0.id] }).max(), lastRank >= limit else { return nil }
            }
        }
        return Array(ordered.prefix(limit))
    }

    /// A keyset page from the partitions' own pages of `limit` trips each: always exact.
    static func merge(_ pages: [[Trip]], limit: Int, direction: KeysetDirection) -> [Trip] {
        Array(ordered(pages, direction).prefix(limit))
    }

    private static func ordered(_ pages: [[Trip]], _ direction: KeysetDirection) -> [Trip] {
        let precedes: (TripKey, TripKey) -> Bool = direction == .older ? { $0 > $1 } : { $0 < $1 }
        return pages.joined().sorted { precedes(TripKey($0), TripKey($1)) }
    }

    /// The rows each of `partitions` is first asked for toward a page of `limit`: its expected count when the
    /// page's trips spread evenly over the partitions, plus three standard deviations and one, at most `limit`.
    static func share(of limit: Int, among partitions: Int) -> Int {
        guard partitions > 1, limit > 0 else { return limit }
        let fraction = 1 / Double(partitions)
        let expected = Double(limit) * fraction
        let spread = 3 * (Double(limit) * fraction * (1 - fraction)).squareRoot()
        return min(limit, Int((expected + spread).rounded(.up)) + 1)
    }

    /// A count added up over the partitions' answers (each partition's capped count, or its planner's estimate),
    /// saturating rather than overflowing.
    static func total(_ counts: [Int64]) -> Int64 {
        counts.reduce(0) { sum, count in
            let (result, overflow) = sum.addingReportingOverflow(count)
            return overflow ? .max : result
        }
    }

    /// The stats rows of one node from the partitions' (`answers`, each partition's `AnalystStats` rows): all of
    /// them in the order of their (period, dimension value) buckets, value bytes compared as `COLLATE "C"` does, so
    /// that a bucket's rows from every partition follow each other and `buckets` adds them up; with `bucketLimit`
    /// (a dimension's), only the first that many buckets. Exact: a partition ranks a bucket no later than all
    /// partitions together do, so each partition returned every bucket of the first `bucketLimit` it holds.
    static func stats(_ answers: [[AnalystStatsRow]], bucketLimit: Int?) -> [AnalystStatsRow] {
        let rows = answers.joined().sorted { first, second in
            if first.startMicros != second.startMicros { return first.startMicros < second.startMicros }
            return (first.dimensionValue ?? "").utf8.lexicographicallyPrecedes((second.dimensionValue ?? "").utf8)
        }
        guard let bucketLimit else { return rows }
        var buckets = 0
        var kept: [AnalystStatsRow] = []
        for (index, row) in rows.enumerated() {
            let previous = index > 0 ? rows[index - 1] : nil
            if previous?.startMicros != row.startMicros || previous?.dimensionValue != row.dimensionValue {
                buckets += 1
                guard buckets <= bucketLimit else { break }
            }
            kept.append(row)
        }
        return kept
    }
}
