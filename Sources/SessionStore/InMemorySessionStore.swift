import Foundation
import Synchronization

/// The default ``SessionStore``: one process, bounded, swept as it goes.
///
/// - At most `maximumSessions` live sessions. When full, expired ones are evicted first; if none has expired,
///   ``insert(_:quota:now:)`` fails with ``SessionStoreError/full(maximum:)``; a kind or an owner over its
///   ``SessionQuota`` fails with ``SessionStoreError/quotaExceeded(_:maximum:)`` (counts kept as sessions come and go).
/// - A taken or expired session leaves a tombstone (its ID, kind and expiry only: the payload is released, and
///   ``SecretBytes`` zeroes it) until `tombstoneSeconds` after its expiry; tombstones are capped at
///   `maximumSessions` too, oldest dropped first.
/// - Expired sessions are swept at most every `sweepIntervalSeconds`, inside the calls that arrive anyway.
public final class InMemorySessionStore: SessionStore {
    struct Tombstone {
        let kind: String
        let owner: String
        let expiresAt: Date
        let wasUsed: Bool
    }

    struct State {
        var live: [String: SessionRecord] = [:]
        var tombstones: [String: Tombstone] = [:]
        var nextSweep = Date.distantPast
        var nextForcedSweep = Date.distantPast
        /// Live sessions per kind and per kind and owner, kept with `live` so quotas cost no scan.
        var liveByKind: [String: Int] = [:]
        var liveByOwner: [OwnerKey: Int] = [:]
    }

    struct OwnerKey: Hashable {
        let kind: String
        let owner: String
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

    public func insert(_ record: SessionRecord, quota: SessionQuota, now: Date) throws(SessionStoreError) {
        try state.withLock { (state) throws(SessionStoreError) in
            sweepIfDue(&state, now: now)
            if refusal(of: record, quota: quota, in: state) != nil && now >= state.nextForcedSweep {
                // Full: every expired session goes now (at most once a second, so a full store stays cheap).
                state.nextForcedSweep = now.addingTimeInterval(1)
                sweep(&state, now: now)
            }
            if let refusal = refusal(of: record, quota: quota, in: state) { throw refusal }
            if let replaced = state.live.updateValue(record, forKey: record.id) { uncount(replaced, in: &state) }
            count(record, in: &state)
        }
    }

    /// Stores a session with no quota but the maximum (synchronously: this store never waits).
    public func insert(_ record: SessionRecord, now: Date) throws(SessionStoreError) {
        try insert(record, quota: .unlimited, now: now)
    }

    /// Takes a session whoever owns it (synchronously).
    public func take(id: String, kind: String, now: Date) -> SessionTakeResult {
        take(id: id, kind: kind, owner: nil, now: now)
    }

    public func take(id: String, kind: String, owner: String?, now: Date) -> SessionTakeResult {
        state.withLock { state in
            sweepIfDue(&state, now: now)
            if let record = state.live[id], record.kind == kind {
                guard owner == nil || owner == record.owner else { return .notFound }
                state.live[id] = nil
                uncount(record, in: &state)
                let expired = record.expiresAt <= now
                addTombstone(&state, id: id, Tombstone(kind: kind, owner: record.owner, expiresAt: record.expiresAt,
                                                        wasUsed: !expired))
                return expired ? .expired : .taken(record)
            }
            if let tombstone = state.tombstones[id], tombstone.kind == kind, owner == nil || owner == tombstone.owner {
                return tombstone.wasUsed ? .alreadyUsed : .expired
            }
            return .notFound
        }
    }

    public func presence(id: String, kind: String, owner: String?, now: Date) -> SessionPresence {
        state.withLock { state in
            if let record = state.live[id], record.kind == kind, owner == nil || owner == record.owner {
                return record.expiresAt <= now ? .expired : .open
            }
            if let tombstone = state.tombstones[id], tombstone.kind == kind, owner == nil || owner == tombstone.owner {
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
            uncount(record, in: &state)
            addTombstone(&state, id: record.id, Tombstone(kind: record.kind, owner: record.owner,
                                                          expiresAt: record.expiresAt, wasUsed: false))
        }
        let forgetBefore = now.addingTimeInterval(-tombstoneSeconds)
        state.tombstones = state.tombstones.filter { $0.value.expiresAt > forgetBefore }
        return expired.count
    }

    /// Why `record` does not fit the store's maximum or `quota` as the counts stand; nil when it fits.
    private func refusal(of record: SessionRecord, quota: SessionQuota, in state: State) -> SessionStoreError? {
        if state.live.count >= maximumSessions { return .full(maximum: maximumSessions) }
        if state.liveByKind[record.kind, default: 0] >= quota.perKind { return .quotaExceeded(.kind, maximum: quota.perKind) }
        if state.liveByOwner[OwnerKey(kind: record.kind, owner: record.owner), default: 0] >= quota.perOwner {
            return .quotaExceeded(.owner, maximum: quota.perOwner)
        }
        return nil
    }

    private func count(_ record: SessionRecord, in state: inout State) {
        state.liveByKind[record.kind, default: 0] += 1
        state.liveByOwner[OwnerKey(kind: record.kind, owner: record.owner), default: 0] += 1
    }

    private func uncount(_ record: SessionRecord, in state: inout State) {
        let owner = OwnerKey(kind: record.kind, owner: record.owner)
        state.liveByKind[record.kind] = state.liveByKind[record.kind].flatMap { $0 > 1 ? $0 - 1 : nil }
        state.liveByOwner[owner] = state.liveByOwner[owner].flatMap { $0 > 1 ? $0 - 1 : nil }
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
