/// The first page of a list, either fetched anew or confirmed unchanged by the service (`304`).
public struct FirstPage: Sendable, Hashable {
    /// The page to show.
    public var page: TripListPage
    /// False when the service answered `304 Not Modified` to the kept page's ETag: what the app shows is current.
    public var changed: Bool
}
