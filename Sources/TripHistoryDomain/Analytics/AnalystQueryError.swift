/// Failures particular to analyst queries, beside the shared `TripHistoryError`.
public enum AnalystQueryError: Error, Hashable, Sendable {
    /// The query ran past the analyst statement timeout: retrying as is will fail again; narrow the window
    /// or add filters.
    case timedOut
}
