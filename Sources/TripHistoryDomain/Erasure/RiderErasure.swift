public import Foundation

/// The record of one erasure of a rider's data: what was removed and who asked, and nothing personal beyond
/// the rider's id, so it can be kept as proof that the request was honoured.
public struct RiderErasure: Hashable, Sendable {
    public let riderID: RiderID
    /// When the erasure committed; trips requested before it can no longer be recorded for the rider.
    public let erasedAt: Date
    /// Trips removed, each reported as erased in the rider's changes feed.
    public let trips: Int
    /// Ledger entries (tips, refunds, corrections) removed with them.
    public let adjustments: Int
    /// The subject of the privacy token that asked.
    public let requestedBy: String

    public init(riderID: RiderID, erasedAt: Date, trips: Int, adjustments: Int, requestedBy: String) {
        self.riderID = riderID
        self.erasedAt = erasedAt
        self.trips = trips
        self.adjustments = adjustments
        self.requestedBy = requestedBy
    }
}
