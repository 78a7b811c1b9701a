import Foundation
import PostgresStore
import SessionStore
import Testing
import TestSupport

/// Reservations and byte bounds on PostgreSQL, as in memory: a reservation is filled once (by any replica, without
/// a quota), taken only once filled and only by its owner; a record over the per-record bound and an owner over its
/// byte share are refused in the insert's statement.
@Suite(.serialized, .enabled(if: PostgresTestCluster.enabled, "no PostgreSQL binaries (initdb, pg_ctl) found: install Debian's postgresql"))
struct PostgresSessionReservationTests {
    let now = Date(timeIntervalSince1970: 1_900_000_000)

    func record(_ id: String = SessionIdentifier.make(), bytes: Int, owner: String = "shop") -> SessionRecord {
        SessionRecord(id: id, kind: "oid4vp-result", createdAt: now, expiresAt: now.addingTimeInterval(300),
                      payload: SecretBytes(Array(repeating: 9, count: bytes)), owner: owner)
    }

    @Test func aReservationIsFilledOnceOnAnyReplicaAndTakenOnlyWhenFilled() async throws {
        let test = try await TestDatabase.make()
        let pools = try (0..<2).map { _ in try TestDatabase.open(test.url) }
        defer { pools.forEach { $0.shutdown() } }
        let replicas = pools.map { PostgresSessionStore(database: $0, maximumSessions: 1) }
        let reservation = record(bytes: 0)
        try await replicas[0].insert(reservation, now: now)
        guard case .pending = await replicas[1].takeFilled(id: reservation.id, kind: "oid4vp-result", owner: "shop", now: now) else {
            Issue.record("an empty reservation is pending"); return
        }
        // The store is at its maximum (one live row), yet the fill takes no new room; of two concurrent fills one wins.
        async let first = replicas[0].fill(id: reservation.id, kind: "oid4vp-result", payload: SecretBytes([1, 2, 3]), now: now)
        async let second = replicas[1].fill(id: reservation.id, kind: "oid4vp-result", payload: SecretBytes([4]), now: now)
        let fills = await [first, second]
        #expect(fills.filter { $0 == .filled }.count == 1 && fills.filter { $0 == .alreadyFilled }.count == 1, "\(fills)")
        guard case .notFound = await replicas[0].takeFilled(id: reservation.id, kind: "oid4vp-result", owner: "kiosk", now: now) else {
            Issue.record("another owner finds nothing"); return
        }
        guard case .taken(let taken) = await replicas[1].takeFilled(id: reservation.id, kind: "oid4vp-result", owner: "shop", now: now) else {
            Issue.record("the filled reservation is taken"); return
        }
        #expect(taken.payload.bytes == [1, 2, 3] || taken.payload.bytes == [4])
        guard case .alreadyUsed = await replicas[0].takeFilled(id: reservation.id, kind: "oid4vp-result", owner: "shop", now: now) else {
            Issue.record("taken once"); return
        }
        let late = record(bytes: 0)
        try? await replicas[0].insert(late, now: now)
        #expect(await replicas[0].fill(id: late.id, kind: "oid4vp-result", payload: SecretBytes([1]), now: now.addingTimeInterval(301)) == .expired)
    }

    @Test func bytesAreBoundedPerRecordAndPerOwner() async throws {
        let test = try await TestDatabase.make()
        let store = PostgresSessionStore(database: test.database, maximumSessions: 100, maximumRecordBytes: 400)
        let quota = SessionQuota(perKind: 100, perOwner: 100, perOwnerBytes: 600)
        await #expect(throws: SessionStoreError.recordTooLarge(maximum: 400)) {
            try await store.insert(record(bytes: 401), quota: quota, now: now)
        }
        try await store.insert(record(bytes: 400), quota: quota, now: now)
        try await store.insert(record(bytes: 200), quota: quota, now: now)
        await #expect(throws: SessionStoreError.quotaExceeded(.ownerBytes, maximum: 600)) {
            try await store.insert(record(bytes: 100), quota: quota, now: now)
        }
        try await store.insert(record(bytes: 400, owner: "kiosk"), quota: quota, now: now)
    }
}
