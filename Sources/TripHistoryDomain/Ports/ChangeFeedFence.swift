/// Proves that this instance has learned of every trip write acknowledged, by any instance, before a call
/// began: an in-memory copy checked after `awaitCurrent()` returned true cannot predate such a write.
public protocol ChangeFeedFence: Sendable {
    /// True once every write acknowledged before the call began has been announced to this instance; false
    /// when that cannot be proven in time (the feed is down, the proof timed out): the caller must then read
    /// from the database itself.
    func awaitCurrent() async -> Bool
}
