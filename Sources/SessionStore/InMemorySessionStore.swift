import Foundation
import Synchronization

/// The default ``SessionStore``: one process, bounded, swept as it goes.
///
/// - At most `maximumSessions` live sessions. When full, expired ones are evicted first; if none has expired,
///   ``insert(_:now:)`` fails with ``SessionStoreError/full(maximum:)``.
/// - A taken or expired session leaves a tombstone (its ID, kind and expiry only: the payload is released, and
///   ``SecretBytes`` zeroes it) until `tombstoneSeconds` after its expiry; tombstones are capped at
///   `maximumSessions` too, oldest dropped first.
/// - Expired sessions are swept at most every `sweepIntervalSeconds`, inside the calls that arrive anyway.
public final class InMemorySessionStore: SessionStore {
    struct Tombstone {
        let kind: String
        let expiresAt: Date
        let wasUsed: Bool
    }

    struct State {
        var live: [String: SessionRecord] = [:]
        var tombstones: [String: Tombstone] = [:]
        var nextSweep = Date.distantPast
        var nextForcedSweep = Date.distantPast
    }

    public let maximumSessions: Int
    public let tombstoneSeconds: TimeInterval
    public let sweepIntervalSeconds: TimeInterval
    private let state = Mutex(State())

    public init(maximumSessions: Int, tombstoneSeconds: TimeInterval = 3600, sweepIntervalSeconds: TimeInterval = 10) {
        self.maximumSessions = max(1, maximumSessions)
        self.tombstoneSeconds = tombstoneSeconds
        self.sweepIntervalSeconds = sweepIntervalSeconds
    }

    public func insert(_ record: SessionRecord, now: Date) throws(SessionStoreError) {
        let maximum = maximumSessions
        try state.withLock { (state) throws(SessionStoreError) in
            sweepIfDue(&state, now: now)
            if state.live.count >= maximum && now >= state.nextForcedSweep {
                // Full: every expired session goes now (at most once a second, so a full store stays cheap).
                state.nextForcedSweep = now.addingTimeInterval(1)
                sweep(&state, now: now)
            }
            guard state.live.count < maximum else { throw .full(maximum: maximum) }
            state.live[record.id] = record
        }
    }

    public func take(id: String, kind: String, now: Date) -> SessionTakeResult {
        state.withLock { state in
            sweepIfDue(&state, now: now)
            if let record = state.live[id], record.kind == kind {
                state.live[id] = nil
                let expired = record.expiresAt <= now
                addTombstone(&state, id: id, Tombstone(kind: kind, expiresAt: record.expiresAt, wasUsed: !expired))
                return expired ? .expired : .taken(record)
            }
            if let tombstone = state.tombstones[id], tombstone.kind == kind {
                return tombstone.wasUsed ? .alreadyUsed : .expired
            }
            return .notFound
        }
    }

    @discardableResult
    public func sweep(now: Date) -> Int {
        state.withLock { sweep(&$0, now: now) }
    }

    public func statistics(now: Date) -> SessionStoreStatistics {
        state.withLock {
            SessionStoreStatistics(live: $0.live.count, tombstones: $0.tombstones.count, maximum: maximumSessions)
        }
    }

    private func sweepIfDue(_ state: inout State, now: Date) {
        guard now >= state.nextSweep else { return }
        sweep(&state, now: now)
    }

    @discardableResult
    private func sweep(_ state: inout State, now: Date) -> Int {
        state.nextSweep = now.addingTimeInterval(sweepIntervalSeconds)
        let expired = state.live.values.filter { $0.expiresAt <= now }
        for record in expired {
            state.live[record.id] = nil
            addTombstone(&state, id: record.id, Tombstone(kind: record.kind, expiresAt: record.expiresAt, wasUsed: false))
        }
        let forgetBefore = now.addingTimeInterval(-tombstoneSeconds)
        state.tombstones = state.tombstones.filter { $0.value.expiresAt > forgetBefore }
        return expired.count
    }

    private func addTombstone(_ state: inout State, id: String, _ tombstone: Tombstone) {
        if state.tombstones.count >= maximumSessions {
            // Bounded: forget the tenth that expired first (they answer "not found" from then on), in one batch so
            // the sort is paid once per many calls.
            let excess = max(1, maximumSessions / 10)
            for (oldID, _) in state.tombstones.sorted(by: { $0.value.expiresAt < $1.value.expiresAt }).prefix(excess) {
                state.tombstones[oldID] = nil
            }
        }
        state.tombstones[id] = tombstone
    }
}
