import Synchronization

/// The deadlines of the database operations in flight, enforced by one task that wakes every `tick`: an operation
/// past its deadline is expired (answered as timed out, its work cancelled). One timer for all operations, where a
/// timer and a task for each cost a dispatch timer and two task switches per query.
final class OperationDeadlines: Sendable {
    private struct Pending: Sendable {
        let deadline: ContinuousClock.Instant
        let expire: @Sendable () -> Void
    }

    private struct Entries: Sendable {
        var next: UInt64 = 0
        var pending: [UInt64: Pending] = [:]
    }

    private let entries = Mutex(Entries())
    private let ticker = Mutex<Task<Void, Never>?>(nil)
    /// How late an expiry may be, at most.
    let tick: Duration

    init(tick: Duration) {
        self.tick = tick
        let task = Task { [weak self, tick] in
            while !Task.isCancelled {
                try? await Task.sleep(for: tick)
                guard let self else { return }
                self.expireDue(now: .now)
            }
        }
        ticker.withLock { $0 = task }
    }

    deinit { stop() }

    /// Stops the ticker; operations still pending are expired at once.
    func stop() {
        ticker.withLock { task in
            task?.cancel()
            task = nil
        }
        let left = entries.withLock { entries -> [Pending] in
            defer { entries.pending.removeAll() }
            return Array(entries.pending.values)
        }
        for entry in left { entry.expire() }
    }

    /// Registers `expire`, called once (on the ticker) if the entry is still there at `deadline`; returns the key for
    /// ``remove(_:)``.
    func add(deadline: ContinuousClock.Instant, expire: @escaping @Sendable () -> Void) -> UInt64 {
        entries.withLock { entries in
            entries.next &+= 1
            entries.pending[entries.next] = Pending(deadline: deadline, expire: expire)
            return entries.next
        }
    }

    /// The operation ended in time.
    func remove(_ key: UInt64) {
        _ = entries.withLock { $0.pending.removeValue(forKey: key) }
    }

    /// Expires every entry whose deadline is not after `now` (outside the lock).
    func expireDue(now: ContinuousClock.Instant) {
        let due = entries.withLock { entries -> [Pending] in
            var due: [Pending] = []
            for (key, entry) in entries.pending where entry.deadline <= now {
                due.append(entry)
                entries.pending.removeValue(forKey: key)
            }
            return due
        }
        for entry in due { entry.expire() }
    }

    var pendingCount: Int { entries.withLock { $0.pending.count } }
}
