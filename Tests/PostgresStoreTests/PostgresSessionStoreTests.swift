import Foundation
import PostgresStore
import SessionStore
import Testing
import TestSupport

@Suite(.serialized, .enabled(if: PostgresTestCluster.enabled, "no PostgreSQL binaries (initdb, pg_ctl) found: install Debian's postgresql"))
struct PostgresSessionStoreTests {
    static let secret: [UInt8] = Array("reader private key 0123456789abcdef".utf8)
    let now = Date(timeIntervalSince1970: 1_900_000_000)

    func record(_ id: String = SessionIdentifier.make(), kind: SessionKind = "web", ttl: TimeInterval = 300) -> SessionRecord {
        SessionRecord(id: id, kind: kind, createdAt: now, expiresAt: now.addingTimeInterval(ttl), payload: SecretBytes(Self.secret))
    }

    @Test func aSessionIsTakenOnceAcrossPoolsAndTheTableHoldsNoPlainPayload() async throws {
        let test = try await TestDatabase.make()
        let store = PostgresSessionStore(database: test.database, maximumSessions: 100)
        let session = record()
        try await store.insert(session, now: now)
        let sealed = try test.psql("SELECT encode(sealed, 'hex') FROM verifierd_sessions WHERE id = '\(session.id)'")
        #expect(!sealed.isEmpty)
        #expect(!sealed.contains(Self.secret.map { String(format: "%02x", $0) }.joined()), "the payload is sealed at rest")
        // Sixteen takes at once, through four pools (four replicas): exactly one gets the payload.
        let pools = try (0..<4).map { _ in try TestDatabase.open(test.url) }
        defer { pools.forEach { $0.shutdown() } }
        let outcomes = await withTaskGroup(of: String.self) { group in
            for index in 0..<16 {
                group.addTask {
                    let replica = PostgresSessionStore(database: pools[index % 4], maximumSessions: 100)
                    switch await replica.take(id: session.id, kind: "web", now: now.addingTimeInterval(1)) {
                    case .taken(let taken): return taken.payload.bytes == Self.secret ? "taken" : "wrong payload"
                    case .alreadyUsed: return "used"
                    case .expired: return "expired"
                    case .notFound: return "not found"
                    case .unavailable(let reason): return "unavailable: \(reason)"
                    }
                }
            }
            var all: [String] = []
            for await outcome in group { all.append(outcome) }
            return all
        }
        #expect(outcomes.filter { $0 == "taken" }.count == 1, "\(outcomes)")
        #expect(outcomes.filter { $0 == "used" }.count == 15, "\(outcomes)")
        #expect(try test.psql("SELECT sealed IS NULL FROM verifierd_sessions WHERE id = '\(session.id)'") == "t",
                "a taken session keeps no payload")
    }

    /// A session taken and put back (its answer was not judged) is live again, sealed again, for one more take; one
    /// that expired meanwhile, or that is live already, is not put back.
    @Test func aSessionPutBackIsTakenAgainOnce() async throws {
        let test = try await TestDatabase.make()
        let store = PostgresSessionStore(database: test.database, maximumSessions: 100)
        let session = record(ttl: 60)
        try await store.insert(session, now: now)
        guard case .taken(let taken) = await store.take(id: session.id, kind: "web", now: now) else {
            Issue.record("not taken"); return
        }
        #expect(await store.restore(taken, now: now.addingTimeInterval(1)) == .restored)
        #expect(await store.restore(taken, now: now.addingTimeInterval(1)) == .notRestored, "live already")
        let sealed = try test.psql("SELECT encode(sealed, 'hex') FROM verifierd_sessions WHERE id = '\(session.id)'")
        #expect(!sealed.isEmpty && !sealed.contains(Self.secret.map { String(format: "%02x", $0) }.joined()), "sealed again")
        #expect(await store.presence(id: session.id, kind: "web", owner: nil, now: now.addingTimeInterval(2)) == .open)
        guard case .taken(let again) = await store.take(id: session.id, kind: "web", now: now.addingTimeInterval(2)) else {
            Issue.record("not taken again"); return
        }
        #expect(again.payload.bytes == Self.secret)
        guard case .alreadyUsed = await store.take(id: session.id, kind: "web", now: now.addingTimeInterval(3)) else {
            Issue.record("taken twice"); return
        }
        #expect(await store.restore(again, now: now.addingTimeInterval(61)) == .notRestored, "expired meanwhile")
    }

    @Test func expiredUnknownAndOtherKindsAreToldApart() async throws {
        let test = try await TestDatabase.make()
        let store = PostgresSessionStore(database: test.database, maximumSessions: 100)
        let short = record(ttl: 10)
        try await store.insert(short, now: now)
        guard case .expired = await store.take(id: short.id, kind: "web", now: now.addingTimeInterval(11)) else {
            Issue.record("an expired session is expired"); return
        }
        guard case .expired = await store.take(id: short.id, kind: "web", now: now.addingTimeInterval(12)) else {
            Issue.record("and stays expired, not used"); return
        }
        let other = record(kind: "proximity")
        try await store.insert(other, now: now)
        guard case .notFound = await store.take(id: other.id, kind: "web", now: now) else {
            Issue.record("a session of another kind is not found"); return
        }
        guard case .taken = await store.take(id: other.id, kind: "proximity", now: now) else {
            Issue.record("the right kind takes it"); return
        }
        guard case .notFound = await store.take(id: SessionIdentifier.make(), kind: "web", now: now) else {
            Issue.record("an unknown id is not found"); return
        }
    }

    /// `presence` answers like `take` without taking: open, then used once taken; expired; another owner's or
    /// kind's is not found.
    @Test func presenceTellsOpenUsedExpiredAndUnknownApartWithoutTaking() async throws {
        let test = try await TestDatabase.make()
        let store = PostgresSessionStore(database: test.database, maximumSessions: 100)
        let open = record().owned(by: "alice")
        try await store.insert(open, now: now)
        #expect(await store.presence(id: open.id, kind: "web", owner: "alice", now: now) == .open)
        #expect(await store.presence(id: open.id, kind: "web", owner: "alice", now: now) == .open)
        #expect(await store.presence(id: open.id, kind: "web", owner: "bob", now: now) == .notFound)
        #expect(await store.presence(id: open.id, kind: "proximity", owner: "alice", now: now) == .notFound)
        #expect(await store.presence(id: open.id, kind: "web", owner: "alice", now: now.addingTimeInterval(301)) == .expired)
        guard case .taken = await store.take(id: open.id, kind: "web", owner: "alice", now: now) else {
            Issue.record("presence took nothing: the session is still there"); return
        }
        #expect(await store.presence(id: open.id, kind: "web", owner: "alice", now: now) == .alreadyUsed)
        #expect(await store.presence(id: SessionIdentifier.make(), kind: "web", owner: nil, now: now) == .notFound)
    }

    @Test func aPayloadDoesNotOpenWithAnotherKeyOrInAnotherRow() async throws {
        let test = try await TestDatabase.make()
        let store = PostgresSessionStore(database: test.database, maximumSessions: 100)
        let first = record(), second = record(), third = record()
        for session in [first, second, third] { try await store.insert(session, now: now) }
        // The sealed bytes moved to another row do not open: they are bound to their ID, kind and expiry.
        _ = try test.psql("UPDATE verifierd_sessions SET sealed = (SELECT sealed FROM verifierd_sessions WHERE id = '\(first.id)') WHERE id = '\(second.id)'")
        guard case .notFound = await store.take(id: second.id, kind: "web", now: now) else {
            Issue.record("a payload moved to another row must not open"); return
        }
        // Another key: the payload does not open, and nothing is handed out.
        let otherKey = try TestDatabase.open(test.url, key: Array(repeating: 9, count: 32))
        defer { otherKey.shutdown() }
        guard case .notFound = await PostgresSessionStore(database: otherKey, maximumSessions: 100)
            .take(id: third.id, kind: "web", now: now) else {
            Issue.record("a payload sealed under another key must not open"); return
        }
        guard case .taken(let taken) = await store.take(id: first.id, kind: "web", now: now) else {
            Issue.record("the untouched session opens"); return
        }
        #expect(taken.payload.bytes == Self.secret)
    }

    @Test func theStoreIsBoundedAndSweptAndCountsWithoutContent() async throws {
        let test = try await TestDatabase.make()
        let store = PostgresSessionStore(database: test.database, maximumSessions: 3, tombstoneSeconds: 60)
        for _ in 0..<3 { try await store.insert(record(ttl: 30), now: now) }
        await #expect(throws: SessionStoreError.full(maximum: 3)) { try await store.insert(record(), now: now) }
        #expect(await store.statistics(now: now) == SessionStoreStatistics(live: 3, tombstones: 0, maximum: 3))
        // Once they expire, there is room again; the sweep clears payloads, then forgets the rows.
        try await store.insert(record(), now: now.addingTimeInterval(31))
        #expect(await store.sweep(now: now.addingTimeInterval(31)) == 3)
        #expect(try test.psql("SELECT count(*) FROM verifierd_sessions WHERE sealed IS NOT NULL") == "1")
        _ = await store.sweep(now: now.addingTimeInterval(31 + 61))
        #expect(try test.psql("SELECT count(*) FROM verifierd_sessions") == "1")
    }

    @Test func anUnreachableDatabaseAnswersUnavailableQuickly() async throws {
        let database = try TestDatabase.open("postgres://verifierd@127.0.0.1:\(PostgresTestCluster.freePort())/none",
                                             timeout: .milliseconds(500))
        defer { database.shutdown() }
        let store = PostgresSessionStore(database: database, maximumSessions: 10)
        await #expect(throws: SessionStoreError.self) { try await store.insert(record(), now: now) }
        guard case .unavailable = await store.take(id: SessionIdentifier.make(), kind: "web", now: now) else {
            Issue.record("take must say the store is unavailable"); return
        }
    }

    @Test func keyFilesAreReadStrictly() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("keys-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let key = Array(repeating: UInt8(0xAB), count: 32)
        let good = ["base64": Data(Data(key).base64EncodedString().utf8) + Data("\n".utf8),
                    "hex": Data(String(repeating: "ab", count: 32).utf8), "raw": Data(key)]
        for (name, contents) in good {
            let file = folder.appendingPathComponent(name)
            try contents.write(to: file)
            #expect(throws: Never.self) { _ = try SessionSealingKey(file: file) }
        }
        for (name, contents) in ["short": Data("abcd".utf8), "empty": Data()] {
            let file = folder.appendingPathComponent(name)
            try contents.write(to: file)
            #expect(throws: PostgresStoreError.self) { _ = try SessionSealingKey(file: file) }
        }
        #expect(throws: PostgresStoreError.self) { _ = try SessionSealingKey(file: folder.appendingPathComponent("absent")) }
    }

    /// Quotas per kind and per owner hold across replicas (the count is in the insert's statement), and a session is
    /// taken only by its owner.
    @Test func quotasAndOwnersHoldAcrossReplicas() async throws {
        let test = try await TestDatabase.make()
        let pools = try (0..<2).map { _ in try TestDatabase.open(test.url) }
        defer { pools.forEach { $0.shutdown() } }
        let replicas = pools.map { PostgresSessionStore(database: $0, maximumSessions: 100) }
        let quota = SessionQuota(perKind: 3, perOwner: 2)
        let first = record().owned(by: "shop")
        try await replicas[0].insert(first, quota: quota, now: now)
        try await replicas[1].insert(record().owned(by: "shop"), quota: quota, now: now)
        await #expect(throws: SessionStoreError.quotaExceeded(.owner, maximum: 2)) {
            try await replicas[0].insert(record().owned(by: "shop"), quota: quota, now: now)
        }
        try await replicas[1].insert(record().owned(by: "kiosk"), quota: quota, now: now)
        await #expect(throws: SessionStoreError.quotaExceeded(.kind, maximum: 3)) {
            try await replicas[0].insert(record().owned(by: "door"), quota: quota, now: now)
        }
        try await replicas[0].insert(record(kind: "proximity").owned(by: "door"), quota: quota, now: now)
        guard case .notFound = await replicas[1].take(id: first.id, kind: "web", owner: "kiosk", now: now) else {
            Issue.record("another owner finds nothing"); return
        }
        guard case .taken(let taken) = await replicas[1].take(id: first.id, kind: "web", owner: "shop", now: now) else {
            Issue.record("the owner takes it on another replica"); return
        }
        #expect(taken.owner == "shop" && taken.payload.bytes == Self.secret)
        try await replicas[0].insert(record().owned(by: "door"), quota: quota, now: now)
    }
}
