import Synchronization

/// A reference that is set at most once and then read by any number of threads without locking: what the
/// standard library's `AtomicLazyReference` does, with calls this module can specialize.
///
/// Why: `AtomicLazyReference.load()` is not inlinable, so every call ran its generic code and looked up the
/// type's metadata at run time, in each table lookup (`ZoneOffsets`, `DayStrings`), once per trip each
/// (a profile showed it; `BENCHMARKS.md` keeps its findings).
final class PublishedOnce<Value: AnyObject & Sendable>: Sendable {
    /// Holds one retain of the published value, released with this object.
    private let published = Atomic<Unmanaged<Value>?>(nil)

    init() {}

    /// The published value, or nil before one is.
    func load() -> Value? {
        published.load(ordering: .acquiring)?.takeUnretainedValue()
    }

    /// Publishes `value` unless another one was published first, and returns the one that is.
    func storeIfNil(_ value: Value) -> Value {
        let candidate = Unmanaged.passRetained(value)
        let (exchanged, original) = published.compareExchange(
            expected: nil, desired: candidate, ordering: .acquiringAndReleasing
        )
        if exchanged { return value }
        candidate.release()
        // Not exchanged: `original` is the value another thread published.
        return original!.takeUnretainedValue()
    }

    deinit {
        published.load(ordering: .acquiring)?.release()
    }
}
