/// Entries in least-recently-used order: a dictionary from key to slot and a doubly linked list threaded
/// through an array of slots, so lookup, touch, insert and evict are O(1) with no per-entry allocation
/// beyond the key and value themselves. Not thread-safe; `ResponseCache` guards it with its lock.
struct LRUEntries<Value: Sendable>: Sendable {
    struct Entry: Sendable {
        var value: Value
        /// The scope generation the value was computed at.
        var generation: UInt64
        var expires: ContinuousClock.Instant
        /// Bytes accounted for this entry: key, value and overhead.
        var cost: Int
    }

    private struct Slot: Sendable {
        var key: String
        var entry: Entry
    }

    /// A slot's neighbours in the list, kept apart from the slots so that relinking one on every lookup
    /// never copies a key or a value.
    private struct Link: Sendable {
        var newer: Int
        var older: Int
    }

    private static var none: Int { -1 }

    private var slots: [Slot?] = []
    /// The links of `slots`, position for position.
    private var links: [Link] = []
    private var freeSlots: [Int] = []
    private var index: [String: Int] = [:]
    private var newest = none
    private var oldest = none
    /// Sum of the `cost` of the entries held.
    private(set) var bytes = 0

    var count: Int { index.count }

    /// The entry for `key`, made the most recently used.
    mutating func touch(_ key: String) -> Entry? {
        guard let position = index[key], let entry = slots[position]?.entry else { return nil }
        if position != newest {
            unlink(position)
            linkAsNewest(position)
        }
        return entry
    }

    /// Stores `entry` under `key` as the most recently used, replacing any entry already there.
    mutating func insert(_ key: String, _ entry: Entry) {
        if index[key] != nil { remove(key) }
        let slot = Slot(key: key, entry: entry)
        let position: Int
        if let free = freeSlots.popLast() {
            slots[free] = slot
            links[free] = Link(newer: Self.none, older: Self.none)
            position = free
        } else {
            slots.append(slot)
            links.append(Link(newer: Self.none, older: Self.none))
            position = slots.count - 1
        }
        index[key] = position
        linkAsNewest(position)
        bytes += entry.cost
    }

    /// Removes the entry for `key` if there is one.
    @discardableResult
    mutating func remove(_ key: String) -> Entry? {
        guard let position = index.removeValue(forKey: key), let slot = slots[position] else { return nil }
        unlink(position)
        slots[position] = nil
        freeSlots.append(position)
        bytes -= slot.entry.cost
        return slot.entry
    }

    /// Removes and returns the least recently used key, nil when empty.
    mutating func removeOldest() -> String? {
        guard oldest != Self.none, let key = slots[oldest]?.key else { return nil }
        remove(key)
        return key
    }

    /// The least recently used key and entry, nil when empty.
    var oldestEntry: (key: String, entry: Entry)? {
        guard oldest != Self.none, let slot = slots[oldest] else { return nil }
        return (slot.key, slot.entry)
    }

    /// Keys from most to least recently used, for tests.
    var keysNewestFirst: [String] {
        var keys: [String] = []
        var position = newest
        while position != Self.none, let slot = slots[position] {
            keys.append(slot.key)
            position = links[position].older
        }
        return keys
    }

    mutating func removeAll() {
        slots = []
        links = []
        freeSlots = []
        index = [:]
        newest = Self.none
        oldest = Self.none
        bytes = 0
    }

    private mutating func unlink(_ position: Int) {
        let link = links[position]
        if link.newer != Self.none { links[link.newer].older = link.older } else { newest = link.older }
        if link.older != Self.none { links[link.older].newer = link.newer } else { oldest = link.newer }
        links[position] = Link(newer: Self.none, older: Self.none)
    }

    private mutating func linkAsNewest(_ position: Int) {
        links[position] = Link(newer: Self.none, older: newest)
        if newest != Self.none { links[newest].newer = position }
        newest = position
        if oldest == Self.none { oldest = position }
    }
}
