import TripHistoryDomain

extension AnalystFeedPosition {
    /// The position on one PostgreSQL, which is what these tests' store hands out; nil for a sharded one.
    var node: AnalystChangePosition? {
        if case .node(let position) = self { position } else { nil }
    }
}
