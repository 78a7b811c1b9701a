import Foundation

/// What a budgeted cache keeps per key: its size against the byte budget and when it was fetched.
protocol BudgetedEntry: Sendable {
    /// The bytes it counts against the budget.
    var budgetBytes: Int { get }
    var fetchedAt: Date { get }
}

/// The entries of the status-list and CRL caches, kept within a count (`capacity`) and a byte budget
/// (`maximumBytes`): storing one first drops those past their use, then the least recently fetched, until it fits;
/// one larger than the whole budget is not kept.
struct BudgetedEntries<Key: Hashable & Sendable, Entry: BudgetedEntry>: Sendable {
    private(set) var all: [Key: Entry] = [:]
    /// The sum of the kept entries' ``BudgetedEntry/budgetBytes``.
    private(set) var heldBytes = 0
    let capacity: Int
    let maximumBytes: Int

    init(capacity: Int, maximumBytes: Int) {
        self.capacity = capacity
        self.maximumBytes = maximumBytes
    }

    subscript(key: Key) -> Entry? { all[key] }

    var count: Int { all.count }

    /// Changes a kept entry in place without changing its size (a memo added to it); nothing when none is kept.
    mutating func update(_ key: Key, _ change: (inout Entry) -> Void) {
        guard var entry = all[key] else { return }
        let size = entry.budgetBytes
        change(&entry)
        precondition(entry.budgetBytes == size, "an update must not change an entry's size")
        all[key] = entry
    }

    /// Keeps `entry` at `key` (replacing what was there), dropping first every entry `isSpent` says is past its use,
    /// then the least recently fetched, until it fits.
    mutating func store(_ entry: Entry, at key: Key, isSpent: (Entry) -> Bool) {
        if let replaced = all.removeValue(forKey: key) { heldBytes -= replaced.budgetBytes }
        let size = entry.budgetBytes
        guard size <= maximumBytes else { return }
        for (kept, old) in all where isSpent(old) {
            all[kept] = nil
            heldBytes -= old.budgetBytes
        }
        while !all.isEmpty, all.count >= capacity || heldBytes + size > maximumBytes,
              let oldest = all.min(by: { $0.value.fetchedAt < $1.value.fetchedAt }) {
            all[oldest.key] = nil
            heldBytes -= oldest.value.budgetBytes
        }
        all[key] = entry
        heldBytes += size
    }
}
