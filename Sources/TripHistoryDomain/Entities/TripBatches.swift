/// The batches of an export, read one at a time so that an export of any size holds one batch in memory.
public protocol TripBatches: Sendable {
    /// Whether every trip was returned, so `next()` reads nothing more and returns nil.
    var isFinished: Bool { get }
    /// The next non-empty batch, or nil once every trip was returned.
    mutating func next() async throws -> [Trip]?
}
