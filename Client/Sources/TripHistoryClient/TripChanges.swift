/// What the changes feed answered: changes (possibly none) and the token to keep, or `304 Not Modified`.
public enum TripChanges: Sendable, Hashable {
    /// A `200`: the page of changes and the next token.
    case page(TripChangePage)
    /// A `304` to the entity tag sent: nothing changed since the token; keep it and its tag.
    case notModified
}
