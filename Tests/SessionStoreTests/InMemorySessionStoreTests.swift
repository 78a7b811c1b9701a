import Foundation
@testable import SessionStore
import Testing

struct InMemorySessionStoreTests {
    static let start = Date(timeIntervalSince1970: 2_000_000_000)

    static func record(_ id: String, expiresIn seconds: TimeInterval = 300, kind: SessionKind = "web", at now: Date = start) -> SessionRecord {
        SessionRecord(id: id, kind: kind, createdAt: now, expiresAt: now.addingTimeInterval(seconds), payload: SecretBytes([1, 2, 3]))
    }

    @Test func aSessionIsTakenOnceThenKnownAsUsed() throws {
        let store = InMemorySessionStore(maximumSessions: 10)
        try store.insert(Self.record("a"), now: Self.start)
        guard case .taken(let record) = store.take(id: "a", kind: "web", now: Self.start) else {
            Issue.record("not taken")
            return
        }
        #expect(record.payload.bytes == [1, 2, 3])
        guard case .alreadyUsed = store.take(id: "a", kind: "web", now: Self.start) else {
            Issue.record("a second take must say already used")
            return
        }
        guard case .notFound = store.take(id: "b", kind: "web", now: Self.start) else {
            Issue.record("unknown")
            return
        }
    }

    /// A record taken and put back (its answer was not judged) is live again, once; an expired one, a record never
    /// taken, or one put back already, is not.
    @Test func aRecordPutBackCanBeTakenAgainOnce() throws {
        let store = InMemorySessionStore(maximumSessions: 10)
        try store.insert(Self.record("a", expiresIn: 60), now: Self.start)
        guard case .taken(let record) = store.take(id: "a", kind: "web", now: Self.start) else {
            Issue.record("not taken")
            return
        }
        #expect(store.restore(record, now: Self.start) == .restored)
        #expect(store.restore(record, now: Self.start) == .notRestored, "it is live already")
        #expect(store.statistics(now: Self.start).live == 1)
        guard case .taken(let again) = store.take(id: "a", kind: "web", now: Self.start.addingTimeInterval(1)) else {
            Issue.record("the record put back was not taken again")
            return
        }
        #expect(again.payload.bytes == [1, 2, 3])
        guard case .alreadyUsed = store.take(id: "a", kind: "web", now: Self.start.addingTimeInterval(2)) else {
            Issue.record("taken twice")
            return
        }
        #expect(store.restore(again, now: Self.start.addingTimeInterval(61)) == .notRestored, "expired meanwhile")
        #expect(store.restore(Self.record("never"), now: Self.start) == .notRestored, "never taken")
    }

    @Test func anotherKindCannotTakeIt() throws {
        let store = InMemorySessionStore(maximumSessions: 10)
        try store.insert(Self.record("a", kind: "proximity"), now: Self.start)
        guard case .notFound = store.take(id: "a", kind: "web", now: Self.start) else {
            Issue.record("a web take found a proximity session")
            return
        }
        guard case .taken = store.take(id: "a", kind: "proximity", now: Self.start) else {
            Issue.record("the proximity session is gone")
            return
        }
    }

    @Test func anExpiredSessionSaysExpiredThenIsForgotten() throws {
        let store = InMemorySessionStore(maximumSessions: 10, tombstoneSeconds: 600)
        try store.insert(Self.record("a", expiresIn: 60), now: Self.start)
        guard case .expired = store.take(id: "a", kind: "web", now: Self.start.addingTimeInterval(61)) else {
            Issue.record("not expired")
            return
        }
        guard case .expired = store.take(id: "a", kind: "web", now: Self.start.addingTimeInterval(120)) else {
            Issue.record("the tombstone must keep saying expired")
            return
        }
        store.sweep(now: Self.start.addingTimeInterval(60 + 601))
        guard case .notFound = store.take(id: "a", kind: "web", now: Self.start.addingTimeInterval(700)) else {
            Issue.record("tombstones must go after tombstoneSeconds")
            return
        }
    }

    @Test func aFullStoreEvictsExpiredSessionsFirstAndOtherwiseRefuses() throws {
        let store = InMemorySessionStore(maximumSessions: 3)
        try store.insert(Self.record("old", expiresIn: 10), now: Self.start)
        try store.insert(Self.record("b"), now: Self.start)
        try store.insert(Self.record("c"), now: Self.start)
        #expect(throws: SessionStoreError.full(maximum: 3)) { try store.insert(Self.record("d"), now: Self.start) }
        // Once "old" has expired, a new session takes its place.
        try store.insert(Self.record("d"), now: Self.start.addingTimeInterval(11))
        #expect(store.statistics(now: Self.start).live == 3)
        guard case .expired = store.take(id: "old", kind: "web", now: Self.start.addingTimeInterval(11)) else {
            Issue.record("the evicted session must be known as expired")
            return
        }
    }

    @Test func sweepingEmptiesTheStoreAfterExpiry() throws {
        let store = InMemorySessionStore(maximumSessions: 1000, tombstoneSeconds: 300)
        for index in 0..<500 { try store.insert(Self.record("s\(index)"), now: Self.start) }
        for index in 0..<250 { _ = store.take(id: "s\(index)", kind: "web", now: Self.start) }
        #expect(store.statistics(now: Self.start) == SessionStoreStatistics(live: 250, tombstones: 250, maximum: 1000, liveBytes: 750))
        #expect(store.sweep(now: Self.start.addingTimeInterval(301)) == 250)
        #expect(store.statistics(now: Self.start).live == 0)
        store.sweep(now: Self.start.addingTimeInterval(301 + 301))
        #expect(store.statistics(now: Self.start) == SessionStoreStatistics(live: 0, tombstones: 0, maximum: 1000, liveBytes: 0))
    }

    @Test func tombstonesAreBounded() throws {
        let store = InMemorySessionStore(maximumSessions: 100)
        for index in 0..<1000 {
            try store.insert(Self.record("s\(index)"), now: Self.start)
            _ = store.take(id: "s\(index)", kind: "web", now: Self.start)
        }
        #expect(store.statistics(now: Self.start).tombstones <= 100)
    }

    @Test func concurrentTakesHandOutEachSessionOnce() async throws {
        let store = InMemorySessionStore(maximumSessions: 1000)
        for index in 0..<200 { try await store.insert(Self.record("s\(index)"), now: Self.start) }
        let counts = await withTaskGroup(of: [String].self) { group in
            for _ in 0..<8 {
                group.addTask {
                    var mine: [String] = []
                    for index in 0..<200 {
                        if case .taken(let record) = await store.take(id: "s\(index)", kind: "web", now: Self.start) {
                            mine.append(record.id)
                        }
                    }
                    return mine
                }
            }
            var counts: [String: Int] = [:]
            for await ids in group { for id in ids { counts[id, default: 0] += 1 } }
            return counts
        }
        #expect(counts.count == 200)
        #expect(counts.values.allSatisfy { $0 == 1 })
    }

    @Test func identifiersAreLongRandomAndChecked() {
        let ids = Set((0..<1000).map { _ in SessionIdentifier.make() })
        #expect(ids.count == 1000)
        #expect(ids.allSatisfy(SessionIdentifier.isWellFormed))
        #expect(!SessionIdentifier.isWellFormed("short"))
        #expect(!SessionIdentifier.isWellFormed(String(repeating: "+", count: 43)))
    }

    @Test func secretBytesAreZeroedWhenReleased() {
        // The clearing routine that deinit runs, applied to a buffer we can still read.
        var bytes: [UInt8] = [9, 9, 9, 9]
        let secret = SecretBytes(consuming: &bytes)
        #expect(bytes.isEmpty)
        #expect(secret.bytes == [9, 9, 9, 9])
        #expect("\(secret)" == "SecretBytes(4 bytes)")
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 4)
        _ = buffer.initialize(from: [1, 2, 3, 4])
        SecretBytes.clear(buffer)
        #expect(Array(buffer) == [0, 0, 0, 0])
        buffer.deallocate()
    }

    @Test func quotasBoundEachKindAndEachOwnerWithinIt() throws {
        let store = InMemorySessionStore(maximumSessions: 100)
        let quota = SessionQuota(perKind: 3, perOwner: 2)
        func owned(_ id: String, _ owner: String, kind: SessionKind = "web") -> SessionRecord {
            Self.record(id, kind: kind).owned(by: owner)
        }
        try store.insert(owned("a1", "a"), quota: quota, now: Self.start)
        try store.insert(owned("a2", "a"), quota: quota, now: Self.start)
        #expect(throws: SessionStoreError.quotaExceeded(.owner, maximum: 2)) {
            try store.insert(owned("a3", "a"), quota: quota, now: Self.start)
        }
        try store.insert(owned("b1", "b"), quota: quota, now: Self.start)
        #expect(throws: SessionStoreError.quotaExceeded(.kind, maximum: 3)) {
            try store.insert(owned("c1", "c"), quota: quota, now: Self.start)
        }
        // Another kind has its own count.
        try store.insert(owned("p1", "a", kind: "proximity"), quota: quota, now: Self.start)
        // Taking one frees its place; so does expiry.
        guard case .taken = store.take(id: "a1", kind: "web", owner: "a", now: Self.start) else {
            Issue.record("the owner takes its session"); return
        }
        try store.insert(owned("a3", "a"), quota: quota, now: Self.start)
        try store.insert(Self.record("short", expiresIn: 10).owned(by: "c"), quota: SessionQuota(perKind: 4, perOwner: 2),
                         now: Self.start)
        #expect(throws: SessionStoreError.quotaExceeded(.kind, maximum: 4)) {
            try store.insert(owned("c2", "c"), quota: SessionQuota(perKind: 4, perOwner: 2), now: Self.start)
        }
        try store.insert(owned("c2", "c"), quota: SessionQuota(perKind: 4, perOwner: 2), now: Self.start.addingTimeInterval(11))
    }

    @Test func onlyTheOwnerTakesASessionAndAStrangerLeavesItInPlace() throws {
        let store = InMemorySessionStore(maximumSessions: 10)
        try store.insert(Self.record("s").owned(by: "shop"), now: Self.start)
        guard case .notFound = store.take(id: "s", kind: "web", owner: "kiosk", now: Self.start) else {
            Issue.record("another owner finds nothing"); return
        }
        guard case .taken(let record) = store.take(id: "s", kind: "web", owner: "shop", now: Self.start) else {
            Issue.record("the owner still takes it"); return
        }
        #expect(record.owner == "shop")
        guard case .notFound = store.take(id: "s", kind: "web", owner: "kiosk", now: Self.start) else {
            Issue.record("a stranger does not learn that it was used"); return
        }
        guard case .alreadyUsed = store.take(id: "s", kind: "web", owner: "shop", now: Self.start) else {
            Issue.record("the owner learns it was used"); return
        }
    }

    /// `presence` answers like `take` without taking.
    @Test func presenceTellsOpenUsedExpiredAndUnknownApartWithoutTaking() {
        let store = InMemorySessionStore(maximumSessions: 10)
        let open = Self.record("p").owned(by: "alice")
        try? store.insert(open, now: Self.start)
        #expect(store.presence(id: "p", kind: "web", owner: "alice", now: Self.start) == .open)
        #expect(store.presence(id: "p", kind: "web", owner: "bob", now: Self.start) == .notFound)
        #expect(store.presence(id: "p", kind: "proximity", owner: nil, now: Self.start) == .notFound)
        #expect(store.presence(id: "p", kind: "web", owner: nil, now: Self.start.addingTimeInterval(301)) == .expired)
        guard case .taken = store.take(id: "p", kind: "web", owner: "alice", now: Self.start) else {
            Issue.record("presence took nothing"); return
        }
        #expect(store.presence(id: "p", kind: "web", owner: "alice", now: Self.start) == .alreadyUsed)
        #expect(store.presence(id: "q", kind: "web", owner: nil, now: Self.start) == .notFound)
    }
}
