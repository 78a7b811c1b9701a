import Foundation
import SessionStore
import Testing

/// Reservations (room kept for a result another party completes) and the byte budgets of the in-memory store.
struct SessionReservationAndBytesTests {
    static let start = Date(timeIntervalSince1970: 2_000_000_000)

    static func record(_ id: String, bytes: Int, owner: String = "a", kind: SessionKind = "result") -> SessionRecord {
        SessionRecord(id: id, kind: kind, createdAt: start, expiresAt: start.addingTimeInterval(300),
                      payload: SecretBytes(Array(repeating: 7, count: bytes)), owner: owner)
    }

    @Test func aReservationIsFilledOnceAndTakenOnlyWhenFilled() throws {
        let store = InMemorySessionStore(maximumSessions: 1)
        try store.insert(Self.record("r", bytes: 0), now: Self.start)
        guard case .pending = store.takeFilled(id: "r", kind: "result", owner: "a", now: Self.start) else {
            Issue.record("an empty reservation is pending and stays")
            return
        }
        // The store is full (one session), yet filling takes no new room.
        #expect(store.fill(id: "r", kind: "result", payload: SecretBytes([1, 2]), now: Self.start) == .filled)
        #expect(store.fill(id: "r", kind: "result", payload: SecretBytes([3]), now: Self.start) == .alreadyFilled)
        #expect(store.fill(id: "x", kind: "result", payload: SecretBytes([3]), now: Self.start) == .notFound)
        guard case .notFound = store.takeFilled(id: "r", kind: "result", owner: "b", now: Self.start) else {
            Issue.record("another owner finds nothing")
            return
        }
        guard case .taken(let taken) = store.takeFilled(id: "r", kind: "result", owner: "a", now: Self.start) else {
            Issue.record("a filled reservation is taken")
            return
        }
        #expect(taken.payload.bytes == [1, 2])
        guard case .alreadyUsed = store.takeFilled(id: "r", kind: "result", owner: "a", now: Self.start) else {
            Issue.record("taken once")
            return
        }
        #expect(store.fill(id: "r", kind: "result", payload: SecretBytes([3]), now: Self.start) == .alreadyFilled)
    }

    @Test func anExpiredReservationIsNeitherFilledNorPending() throws {
        let store = InMemorySessionStore(maximumSessions: 4)
        try store.insert(Self.record("r", bytes: 0), now: Self.start)
        let late = Self.start.addingTimeInterval(301)
        #expect(store.fill(id: "r", kind: "result", payload: SecretBytes([1]), now: late) == .expired)
        guard case .expired = store.takeFilled(id: "r", kind: "result", owner: "a", now: late) else {
            Issue.record("expired")
            return
        }
    }

    @Test func bytesAreBoundedPerRecordPerOwnerAndInAll() throws {
        let store = InMemorySessionStore(maximumSessions: 100, maximumBytes: 1_000, maximumRecordBytes: 400)
        let quota = SessionQuota(perKind: 100, perOwner: 100, perOwnerBytes: 600)
        #expect(throws: SessionStoreError.recordTooLarge(maximum: 400)) {
            try store.insert(Self.record("big", bytes: 401), quota: quota, now: Self.start)
        }
        try store.insert(Self.record("a1", bytes: 400), quota: quota, now: Self.start)
        try store.insert(Self.record("a2", bytes: 200), quota: quota, now: Self.start)  // exactly the owner's 600
        #expect(throws: SessionStoreError.quotaExceeded(.ownerBytes, maximum: 600)) {
            try store.insert(Self.record("a3", bytes: 1), quota: quota, now: Self.start)
        }
        try store.insert(Self.record("b1", bytes: 400, owner: "b"), quota: quota, now: Self.start)  // 1000 in all
        #expect(throws: SessionStoreError.fullBytes(maximum: 1_000)) {
            try store.insert(Self.record("c1", bytes: 1, owner: "c"), quota: quota, now: Self.start)
        }
        #expect(store.statistics(now: Self.start).liveBytes == 1_000)
        // Taking a session gives its bytes back.
        _ = store.take(id: "a1", kind: "result", owner: "a", now: Self.start)
        #expect(store.statistics(now: Self.start).liveBytes == 600)
        try store.insert(Self.record("a3", bytes: 400), quota: quota, now: Self.start)
        // Expired sessions give theirs back when swept.
        store.sweep(now: Self.start.addingTimeInterval(301))
        #expect(store.statistics(now: Self.start).liveBytes == 0)
    }
}
