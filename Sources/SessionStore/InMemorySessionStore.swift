import Foundation
import Synchronization

/// The default ``SessionStore``: one process, bounded, swept as it goes.
///
/// - At most `maximumSessions` live sessions holding at most `maximumBytes` of payload, none larger than
///   `maximumRecordBytes`: the store's memory has that ceiling (plus a fixed cost per session). When full, expired ones are evicted first; if none has expired,
///   ``insert(_:quota:now:)`` fails with ``SessionStoreError/full(maximum:)``; a kind or an owner over its
///   ``SessionQuota`` fails with ``SessionStoreError/quotaExceeded(_:maximum:)`` (counts kept as sessions come and go).
/// - A taken or expired session leaves a tombstone (its ID, kind and expiry only: the payload is released, and
///   ``SecretBytes`` zeroes it) until `tombstoneSeconds` after its expiry; tombstones are capped at
///   `maximumSessions` too, oldest dropped first.
/// - Expired sessions are swept at most every `sweepIntervalSeconds`, inside the calls that arrive anyway.
public final class InMemorySessionStore: SessionStore {
    struct Tombstone {
        let kind: SessionKind
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
        var liveByKind: [SessionKind: Int] = [:]
        var liveByOwner: [OwnerKey: Int] = [:]
        /// Payload bytes of the live sessions, all together and per kind and owner.
        var liveBytes = 0
        var liveBytesByOwner: [OwnerKey: Int] = [:]
        /// How many times each live record was read (``read(id:kind:maximumReads:now:)``); dropped with the record.
        var reads: [String: Int] = [:]
    }

    struct OwnerKey: Hashable {
        let kind: SessionKind
        let owner: String
    }

    public let maximumSessions: Int
    /// The payload bytes all live sessions may hold together.
    public let maximumBytes: Int
    /// The payload bytes one session may hold.
    public let maximumRecordBytes: Int
    public let tombstoneSeconds: TimeInterval
    public let sweepIntervalSeconds: TimeInterval
    private let state = Mutex(State())

    public init(maximumSessions: Int, maximumBytes: Int = .max, maximumRecordBytes: Int = .max,
                tombstoneSeconds: TimeInterval = 3600, sweepIntervalSeconds: TimeInterval = 10) {
        self.maximumSessions = max(1, maximumSessions)
        self.maximumBytes = max(1, maximumBytes)
        self.maximumRecordBytes = max(1, maximumRecordBytes)
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
    public func take(id: String, kind: SessionKind, now: Date) -> SessionTakeResult {
        take(id: id, kind: kind, owner: nil, now: now)
    }

    public func take(id: String, kind: SessionKind, owner: String?, now: Date) -> SessionTakeResult {
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

    public func restore(_ record: SessionRecord, now: Date) -> SessionRestoreResult {
        state.withLock { state in
            guard record.expiresAt > now, state.live[record.id] == nil, let tombstone = state.tombstones[record.id],
                  tombstone.wasUsed, tombstone.kind == record.kind, tombstone.owner == record.owner
            else { return .notRestored }
            state.tombstones[record.id] = nil
            state.live[record.id] = record
            count(record, in: &state)
            return .restored
        }
    }

    public func read(id: String, kind: SessionKind, maximumReads: Int, now: Date) -> SessionReadResult {
        state.withLock { state in
            if let record = state.live[id], record.kind == kind {
                guard record.expiresAt > now else { return .expired }
                let reads = state.reads[id, default: 0]
                guard reads < maximumReads else { return .exhausted }
                state.reads[id] = reads + 1
                return .read(record, reads: reads + 1)
            }
            if let tombstone = state.tombstones[id], tombstone.kind == kind {
                return tombstone.wasUsed ? .alreadyUsed : .expired
            }
            return .notFound
        }
    }

    public func presence(id: String, kind: SessionKind, owner: String?, now: Date) -> SessionPresence {
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

    public func fill(id: String, kind: SessionKind, payload: SecretBytes, now: Date) -> SessionFillResult {
        state.withLock { state in
            if let record = state.live[id], record.kind == kind {
                guard record.expiresAt > now else { return .expired }
                guard record.payload.count == 0 else { return .alreadyFilled }
                // The same record in its place: the counts do not change; its bytes are counted (a result is bounded by
                // the verification that made it, and its room was reserved by count).
                let filled = SessionRecord(id: id, kind: kind, createdAt: record.createdAt, expiresAt: record.expiresAt,
                                           payload: payload, owner: record.owner)
                uncount(record, in: &state)
                state.live[id] = filled
                count(filled, in: &state)
                return .filled
            }
            if let tombstone = state.tombstones[id], tombstone.kind == kind {
                return tombstone.wasUsed ? .alreadyFilled : .expired
            }
            return .notFound
        }
    }

    public func takeFilled(id: String, kind: SessionKind, owner: String?, now: Date) -> SessionFilledTakeResult {
        let pending = state.withLock { state in
            guard let record = state.live[id], record.kind == kind, owner == nil || owner == record.owner else { return false }
            return record.expiresAt > now && record.payload.count == 0
        }
        if pending { return .pending }
        // Filled between the two locks is still one take: take() hands the record out at most once.
        return SessionFilledTakeResult(take(id: id, kind: kind, owner: owner, now: now))
    }

    @discardableResult
    public func sweep(now: Date) -> Int {
        state.withLock { sweep(&$0, now: now) }
    }

    public func statistics(now: Date) -> SessionStoreStatistics {
        state.withLock {
            SessionStoreStatistics(live: $0.live.count, tombstones: $0.tombstones.count, maximum: maximumSessions,
                                   liveBytes: $0.liveBytes)
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
        if record.payload.count > maximumRecordBytes { return .recordTooLarge(maximum: maximumRecordBytes) }
        if state.live.count >= maximumSessions { return .full(maximum: maximumSessions) }
        if state.liveBytes > maximumBytes - record.payload.count { return .fullBytes(maximum: maximumBytes) }
        if state.liveByKind[record.kind, default: 0] >= quota.perKind { return .quotaExceeded(.kind, maximum: quota.perKind) }
        if state.liveByOwner[OwnerKey(kind: record.kind, owner: record.owner), default: 0] >= quota.perOwner {
            return .quotaExceeded(.owner, maximum: quota.perOwner)
        }
        if state.liveBytesByOwner[OwnerKey(kind: record.kind, owner: record.owner), default: 0] > quota.perOwnerBytes - record.payload.count {
            return .quotaExceeded(.ownerBytes, maximum: quota.perOwnerBytes)
        }
        return nil
    }

    private func count(_ record: SessionRecord, in state: inout State) {
        let owner = OwnerKey(kind: record.kind, owner: record.owner)
        state.liveByKind[record.kind, default: 0] += 1
        state.liveByOwner[owner, default: 0] += 1
        state.liveBytes += record.payload.count
        state.liveBytesByOwner[owner, default: 0] += record.payload.count
    }

    private func uncount(_ record: SessionRecord, in state: inout State) {
        state.reads[record.id] = nil
        let owner = OwnerKey(kind: record.kind, owner: record.owner)
        state.liveByKind[record.kind] = state.liveByKind[record.kind].flatMap { $0 > 1 ? $0 - 1 : nil }
        state.liveByOwner[owner] = state.liveByOwner[owner].flatMap { $0 > 1 ? $0 - 1 : nil }
        state.liveBytes -= record.payload.count
        state.liveBytesByOwner[owner] = state.liveBytesByOwner[owner].flatMap { $0 > record.payload.count ? $0 - record.payload.count : nil }
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
