import Foundation

/// Where one-time sessions live between the call that creates them and the call that uses them.
///
/// The one essential operation is ``take(id:kind:now:)``: it hands a session out at most once, atomically, even
/// when several replicas or threads ask for it at the same time. A session that was taken, or that expired, stays
/// known for a while as a tombstone, so callers can tell "used" and "expired" from "never existed".
public protocol SessionStore: Sendable {
    /// Stores a new session within the store's maximum and `quota`; fails with ``SessionStoreError/full`` or
    /// ``SessionStoreError/quotaExceeded(_:maximum:)`` rather than growing without bound.
    func insert(_ record: SessionRecord, quota: SessionQuota, now: Date) async throws(SessionStoreError)

    /// Removes and returns the session if it exists, has this kind, belongs to `owner` (any owner when nil) and has
    /// not expired. A session of another owner is ``SessionTakeResult/notFound`` and stays where it is.
    func take(id: String, kind: SessionKind, owner: String?, now: Date) async -> SessionTakeResult

    /// Reads a live record without taking it, at most `maximumReads` times over its life (every replica's reads
    /// counted together): for what a party may fetch again while its session is open (a cross-device request object,
    /// OpenID4VP 1.0 §5.10). A record of another kind, a taken or expired one, or one read `maximumReads` times is
    /// not handed out.
    func read(id: String, kind: SessionKind, maximumReads: Int, now: Date) async -> SessionReadResult

    /// Whether the session is still open (not taken, not expired), without taking it: for flows whose caller polls
    /// for a result another party completes (OpenID4VP cross-device).
    func presence(id: String, kind: SessionKind, owner: String?, now: Date) async -> SessionPresence
    /// Fills a reservation: a live record of this kind stored with an empty payload (room kept for a result that
    /// another party completes later) gets `payload`, keeping its ID, kind, owner and expiry. It takes no new room,
    /// so no maximum or quota can refuse it; a reservation already filled, taken or expired is not filled again.
    func fill(id: String, kind: SessionKind, payload: SecretBytes, now: Date) async -> SessionFillResult

    /// Takes a filled reservation (see ``fill(id:kind:payload:now:)``) once, like ``take(id:kind:owner:now:)``; one
    /// still empty is ``SessionFilledTakeResult/pending`` and stays where it is.
    func takeFilled(id: String, kind: SessionKind, owner: String?, now: Date) async -> SessionFilledTakeResult

    /// Puts back a record that ``take(id:kind:owner:now:)`` handed out and whose answer was not judged (its caller was
    /// refused for want of capacity before anything about the answer was decided): it is live again with its ID,
    /// kind, owner, expiry and payload, as it was before the take. Never refused for room (the record held it a
    /// moment ago); a record that expired meanwhile, or whose tombstone is gone, stays taken.
    func restore(_ record: SessionRecord, now: Date) async -> SessionRestoreResult

    /// Drops expired sessions and old tombstones; returns how many sessions were dropped.
    @discardableResult
    func sweep(now: Date) async -> Int

    /// Counts for metrics and the admin listing (never any session content).
    func statistics(now: Date) async -> SessionStoreStatistics
}

extension SessionStore {
    /// Stores a new session with no quota but the store's maximum.
    public func insert(_ record: SessionRecord, now: Date) async throws(SessionStoreError) {
        try await insert(record, quota: .unlimited, now: now)
    }

    /// Takes a session whoever owns it.
    public func take(id: String, kind: SessionKind, now: Date) async -> SessionTakeResult {
        await take(id: id, kind: kind, owner: nil, now: now)
    }
}

/// How many live sessions one kind, and one owner within that kind, may hold at once, and how many payload bytes,
/// so one flow or one client cannot fill the store that the others share, by count or by size.
public struct SessionQuota: Sendable, Equatable {
    /// Live sessions of the record's kind, all owners together.
    public var perKind: Int
    /// Live sessions of the record's kind and owner.
    public var perOwner: Int
    /// Payload bytes of the live sessions of the record's kind and owner.
    public var perOwnerBytes: Int

    public init(perKind: Int, perOwner: Int, perOwnerBytes: Int = .max) {
        self.perKind = max(1, perKind)
        self.perOwner = max(1, perOwner)
        self.perOwnerBytes = max(1, perOwnerBytes)
    }

    /// Only the store's own maximum applies.
    public static let unlimited = SessionQuota(perKind: Int.max, perOwner: Int.max)
}

/// Which quota refused a session.
public enum SessionQuotaScope: String, Sendable, Equatable {
    /// The record's kind holds ``SessionQuota/perKind`` live sessions.
    case kind
    /// The record's owner holds ``SessionQuota/perOwner`` live sessions of this kind.
    case owner
    /// The record's owner holds ``SessionQuota/perOwnerBytes`` payload bytes of this kind (with this record, more).
    case ownerBytes
}

/// The answer to ``SessionStore/take(id:kind:owner:now:)``.
public enum SessionTakeResult: Sendable {
    case taken(SessionRecord)
    /// The session existed and was already taken (by a verification that succeeded or failed).
    case alreadyUsed
    /// The session existed and expired before it was used.
    case expired
    /// No such session of this kind (or it was forgotten long ago).
    case notFound
    /// The store could not be asked (e.g. its database is unreachable); nothing was taken.
    case unavailable(String)
}

/// The answer to ``SessionStore/read(id:kind:maximumReads:now:)``.
public enum SessionReadResult: Sendable {
    /// The record, and how many times it has been read with this read.
    case read(SessionRecord, reads: Int)
    /// It has been read its maximum number of times: it stays where it is, for the session to be answered.
    case exhausted
    case alreadyUsed
    case expired
    case notFound
    case unavailable(String)
}

/// The answer to ``SessionStore/restore(_:now:)``.
public enum SessionRestoreResult: Sendable, Equatable {
    /// The record is live again.
    case restored
    /// It expired meanwhile, or its tombstone is gone: it stays taken.
    case notRestored
    case unavailable(String)
}

/// The answer to ``SessionStore/presence(id:kind:owner:now:)``.
public enum SessionPresence: Sendable, Equatable {
    case open
    case alreadyUsed
    case expired
    case notFound
    case unavailable(String)
}

/// The answer to ``SessionStore/fill(id:kind:payload:now:)``.
public enum SessionFillResult: Sendable, Equatable {
    case filled
    /// The reservation holds a payload already (filled before), or was taken.
    case alreadyFilled
    case expired
    case notFound
    case unavailable(String)
}

/// The answer to ``SessionStore/takeFilled(id:kind:owner:now:)``.
public enum SessionFilledTakeResult: Sendable {
    case taken(SessionRecord)
    /// The reservation is live and still empty: nothing was taken.
    case pending
    case alreadyUsed
    case expired
    case notFound
    case unavailable(String)
}

extension SessionFilledTakeResult {
    /// What an ordinary take of a filled reservation answers.
    public init(_ take: SessionTakeResult) {
        switch take {
        case .taken(let record): self = .taken(record)
        case .alreadyUsed: self = .alreadyUsed
        case .expired: self = .expired
        case .notFound: self = .notFound
        case .unavailable(let reason): self = .unavailable(reason)
        }
    }
}

/// Why a session could not be stored.
public enum SessionStoreError: Error, Sendable, Equatable {
    /// The store holds its maximum number of live sessions.
    case full(maximum: Int)
    /// The live sessions' payloads and this record's would exceed the store's byte maximum.
    case fullBytes(maximum: Int)
    /// This record's payload alone is larger than the store keeps for one session.
    case recordTooLarge(maximum: Int)
    /// The record's kind, or its owner within the kind, holds its quota of live sessions.
    case quotaExceeded(SessionQuotaScope, maximum: Int)
    /// The backing store failed (e.g. a database is unreachable).
    case unavailable(String)
}

/// What a store holds, by count.
public struct SessionStoreStatistics: Sendable, Equatable {
    public var live: Int
    public var tombstones: Int
    public var maximum: Int
    /// Payload bytes of the live sessions (nil where the store does not count them).
    public var liveBytes: Int?

    public init(live: Int, tombstones: Int, maximum: Int, liveBytes: Int? = nil) {
        self.live = live
        self.tombstones = tombstones
        self.maximum = maximum
        self.liveBytes = liveBytes
    }
}

/// A flow's session as it lives in a ``SessionRecord``: its kind, and how to read it back.
public protocol StoredSession: Sendable {
    /// The record kind this type writes and reads (e.g. `web`, `proximity`).
    static var kind: SessionKind { get }
    /// Nil when the record is of another kind or not one this type wrote.
    init?(record: SessionRecord)
}
