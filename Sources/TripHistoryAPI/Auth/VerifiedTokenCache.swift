import Crypto
import Foundation
import Synchronization
import TripHistoryDomain

/// A bounded map from a verified bearer token to its `Caller` and expiry, so a token reused on every request
/// pays for JWT decoding and signature checking once.
///
/// Entries are keyed by the token's SHA-256, so no token stays in memory; only tokens that passed full
/// verification are inserted, so a forged or malformed token can neither hit nor poison it. A hit counts only
/// while `now() < expiry` (the test jwt-kit applies); an expired entry is removed when found. At most
/// `capacity` entries are held: the entries are split over a few independently locked shards, chosen by the
/// first digest byte, and a full shard evicts its oldest insertion.
final class VerifiedTokenCache: Sendable {
    /// The most entries held at once.
    let capacity: Int
    private let shards: [Shard]
    private let now: @Sendable () -> Date

    // 32,768 entries (about 5 MB) keep every active token of a busy instance, and of the 20,000-rider benchmark.
    /// A cache for at most `capacity` (at least 1) tokens, judging expiry by `now`.
    init(capacity: Int = 32_768, now: @escaping @Sendable () -> Date = { Date() }) {
        let capacity = max(capacity, 1)
        let shardCount = min(16, capacity)
        self.capacity = capacity
        self.now = now
        shards = (0..<shardCount).map { index in
            Shard(capacity: capacity / shardCount + (index < capacity % shardCount ? 1 : 0))
        }
    }

    /// What the cache knows about a token.
    enum Lookup: Equatable {
        /// Verified before and not expired.
        case hit(Caller)
        /// Verified before but expired now; the entry has been removed.
        case expired
        /// Never verified, or evicted.
        case miss
    }

    /// Looks `token` up, removing its entry if it has expired.
    func lookup(_ token: Substring) -> Lookup {
        let key = Self.key(token)
        let current = now()
        return shard(for: key).state.withLock { state in
            state.lookup(key, now: current)
        }
    }

    /// Remembers that `token` was verified as `caller`, valid until `expiry`.
    func insert(_ token: Substring, caller: Caller, expiry: Date) {
        let key = Self.key(token)
        shard(for: key).state.withLock { state in
            state.insert(key, entry: Entry(caller: caller, expiry: expiry))
        }
    }

    /// The entries held right now.
    var count: Int {
        shards.reduce(0) { total, shard in total + shard.state.withLock { $0.entries.count } }
    }

    private static func key(_ token: Substring) -> SHA256Digest {
        var hasher = SHA256()
        var token = token
        token.withUTF8 { hasher.update(bufferPointer: UnsafeRawBufferPointer($0)) }
        return hasher.finalize()
    }

    private func shard(for key: SHA256Digest) -> Shard {
        let byte = key.withUnsafeBytes { $0[0] }
        return shards[Int(byte) % shards.count]
    }

    private struct Entry {
        var caller: Caller
        var expiry: Date
    }

    private final class Shard: Sendable {
        let state: Mutex<ShardState>

        init(capacity: Int) {
            state = Mutex(ShardState(capacity: capacity))
        }
    }

    /// One shard's entries plus a ring of keys in insertion order. An entry remembers its ring slot, so a slot
    /// whose entry was removed (expired) or re-inserted elsewhere evicts nothing when reused; every entry owns a
    /// distinct slot, which bounds the entries by the ring's size.
    private struct ShardState {
        var entries: [SHA256Digest: (entry: Entry, slot: Int)] = [:]
        var ring: [SHA256Digest?]
        var next = 0

        init(capacity: Int) {
            ring = Array(repeating: nil, count: capacity)
            entries.reserveCapacity(capacity)
        }

        mutating func lookup(_ key: SHA256Digest, now: Date) -> Lookup {
            guard let found = entries[key] else { return .miss }
            guard now < found.entry.expiry else {
                entries[key] = nil
                return .expired
            }
            return .hit(found.entry.caller)
        }

        mutating func insert(_ key: SHA256Digest, entry: Entry) {
            if entries[key] != nil {
                entries[key]!.entry = entry
                return
            }
            let slot = next
            next = (next + 1) % ring.count
            if let old = ring[slot], entries[old]?.slot == slot {
                entries[old] = nil
            }
            ring[slot] = key
            entries[key] = (entry, slot)
        }
    }
}
