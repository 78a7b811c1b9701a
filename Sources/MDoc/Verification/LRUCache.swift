/// A fixed-capacity map that evicts the least recently used entry when full. Not thread-safe: wrap it in a lock.
///
/// Entries sit in arrays and are linked by index, so lookups, insertions and evictions are O(1) and allocate
/// nothing once the cache is full.
public struct LRUCache<Key: Hashable, Value> {
    private struct Entry {
        var key: Key
        var value: Value
        var newer: Int?
        var older: Int?
    }

    public let capacity: Int
    private var entries: [Entry] = []
    private var indices: [Key: Int] = [:]
    private var newest: Int?
    private var oldest: Int?

    public init(capacity: Int) {
        precondition(capacity > 0, "an LRU cache needs room for one entry")
        self.capacity = capacity
        entries.reserveCapacity(capacity)
        indices.reserveCapacity(capacity)
    }

    public var count: Int { indices.count }

    /// The value for `key`, which becomes the most recently used.
    public mutating func value(forKey key: Key) -> Value? {
        guard let index = indices[key] else { return nil }
        moveToFront(index)
        return entries[index].value
    }

    /// Whether `key` is cached, without changing its recency.
    func contains(_ key: Key) -> Bool { indices[key] != nil }

    /// Stores `value` as the most recently used, evicting the least recently used entry when full.
    public mutating func insert(_ value: Value, forKey key: Key) {
        if let index = indices[key] {
            entries[index].value = value
            moveToFront(index)
            return
        }
        let index: Int
        if entries.count < capacity {
            index = entries.count
            entries.append(Entry(key: key, value: value, newer: nil, older: nil))
        } else {
            index = oldest!
            unlink(index)
            indices[entries[index].key] = nil
            entries[index] = Entry(key: key, value: value, newer: nil, older: nil)
        }
        indices[key] = index
        linkAtFront(index)
    }

    private mutating func moveToFront(_ index: Int) {
        guard newest != index else { return }
        unlink(index)
        linkAtFront(index)
    }

    private mutating func unlink(_ index: Int) {
        let newer = entries[index].newer
        let older = entries[index].older
        if let newer { entries[newer].older = older } else { newest = older }
        if let older { entries[older].newer = newer } else { oldest = newer }
        entries[index].newer = nil
        entries[index].older = nil
    }

    private mutating func linkAtFront(_ index: Int) {
        entries[index].older = newest
        entries[index].newer = nil
        if let newest { entries[newest].newer = index }
        newest = index
        if oldest == nil { oldest = index }
    }
}
