/// Which way a walk over pages goes.
public enum PagingDirection: Sendable, Hashable {
    /// Towards older trips (`next_cursor`), the list's natural order.
    case older
    /// Towards newer trips (`prev_cursor`), back to the first page.
    case newer
}
