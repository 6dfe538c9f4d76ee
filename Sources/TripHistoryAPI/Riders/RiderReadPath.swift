/// The path parameters of a rider read as sent, left as text: `RiderRead.check` parses them as the routes do.
public struct RiderReadPath: Equatable, Sendable {
    /// `rider_id`.
    public let riderID: Substring?
    /// `trip_id`; nil on a path without one.
    public let tripID: Substring?

    public init(riderID: Substring?, tripID: Substring? = nil) {
        self.riderID = riderID
        self.tripID = tripID
    }
}
