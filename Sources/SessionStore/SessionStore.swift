import Foundation

/// Where one-time sessions live between the call that creates them and the call that uses them.
///
/// The one essential operation is ``take(id:kind:now:)``: it hands a session out at most once, atomically, even
/// when several replicas or threads ask for it at the same time. A session that was taken, or that expired, stays
/// known for a while as a tombstone, so callers can tell "used" and "expired" from "never existed".
public protocol SessionStore: Sendable {
    /// Stores a new session; fails with ``SessionStoreError/full`` rather than growing without bound.
    func insert(_ record: SessionRecord, now: Date) async throws(SessionStoreError)

    /// Removes and returns the session if it exists, has this kind and has not expired.
    func take(id: String, kind: String, now: Date) async -> SessionTakeResult

    /// Drops expired sessions and old tombstones; returns how many sessions were dropped.
    @discardableResult
    func sweep(now: Date) async -> Int

    /// Counts for metrics and the admin listing (never any session content).
    func statistics(now: Date) async -> SessionStoreStatistics
}

/// The answer to ``SessionStore/take(id:kind:now:)``.
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

/// Why a session could not be stored.
public enum SessionStoreError: Error, Sendable, Equatable {
    /// The store holds its maximum number of live sessions.
    case full(maximum: Int)
    /// The backing store failed (e.g. a database is unreachable).
    case unavailable(String)
}

/// What a store holds, by count.
public struct SessionStoreStatistics: Sendable, Equatable {
    public var live: Int
    public var tombstones: Int
    public var maximum: Int

    public init(live: Int, tombstones: Int, maximum: Int) {
        self.live = live
        self.tombstones = tombstones
        self.maximum = maximum
    }
}

/// A flow's session as it lives in a ``SessionRecord``: its kind, and how to read it back.
public protocol StoredSession: Sendable {
    /// The record kind this type writes and reads (e.g. `web`, `proximity`).
    static var kind: String { get }
    /// Nil when the record is of another kind or not one this type wrote.
    init?(record: SessionRecord)
}
