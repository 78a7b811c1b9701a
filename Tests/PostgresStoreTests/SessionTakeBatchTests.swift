import Foundation
@testable import PostgresStore
import SessionStore
import Testing
import TestSupport

/// Takes that wait together share a round trip (``SessionTakeBatcher``), and each still gets exactly what it would
/// have got alone.
@Suite(.serialized, .enabled(if: PostgresTestCluster.enabled, "no PostgreSQL binaries (initdb, pg_ctl) found: install Debian's postgresql"))
struct SessionTakeBatchTests {
    let now = Date(timeIntervalSince1970: 1_900_000_000)

    @Test func takesWaitingTogetherShareARoundTripAndEachGetsItsOwn() async throws {
        let test = try await TestDatabase.make()
        defer { test.database.shutdown() }
        // One connection: while one batch is in flight, every other take waits for the next.
        let database = try TestDatabase.open(test.url, poolSize: 1)
        defer { database.shutdown() }
        let store = PostgresSessionStore(database: database, maximumSessions: 1000)
        var sessions: [SessionRecord] = []
        for index in 0..<48 {
            let id = SessionIdentifier.make()
            let record = SessionRecord(id: id, kind: "web", createdAt: now, expiresAt: now.addingTimeInterval(300),
                                       payload: SecretBytes(Array("payload of \(id)".utf8)), owner: index == 1 ? "alice" : "")
            try await store.insert(record, now: now)
            sessions.append(record)
        }
        let expired = SessionRecord(id: SessionIdentifier.make(), kind: "web", createdAt: now.addingTimeInterval(-600),
                                    expiresAt: now.addingTimeInterval(-1), payload: SecretBytes([1]))
        try await store.insert(expired, now: now.addingTimeInterval(-600))

        enum Ask: Sendable { case own(Int), replay(Int), otherOwner, otherKind, unknown, expired }
        var asks: [Ask] = (0..<48).map { .own($0) }
        asks += Array(repeating: .replay(0), count: 12)
        asks += [.otherOwner, .otherKind, .unknown, .unknown, .expired]
        let frozen = sessions
        let answers = await withTaskGroup(of: (Int, String).self) { group in
            for (index, ask) in asks.enumerated() {
                group.addTask {
                    let result: SessionTakeResult
                    switch ask {
                    case .own(let i): result = await store.take(id: frozen[i].id, kind: "web", owner: i == 1 ? "alice" : nil, now: now)
                    case .replay(let i): result = await store.take(id: frozen[i].id, kind: "web", now: now)
                    case .otherOwner: result = await store.take(id: frozen[1].id, kind: "web", owner: "bob", now: now)
                    case .otherKind: result = await store.take(id: frozen[2].id, kind: "proximity", now: now)
                    case .unknown: result = await store.take(id: SessionIdentifier.make(), kind: "web", now: now)
                    case .expired: result = await store.take(id: expired.id, kind: "web", now: now)
                    }
                    switch result {
                    case .taken(let record): return (index, "taken:" + String(decoding: record.payload.bytes, as: UTF8.self))
                    case .alreadyUsed: return (index, "used")
                    case .expired: return (index, "expired")
                    case .notFound: return (index, "not found")
                    case .unavailable(let reason): return (index, "unavailable: \(reason)")
                    }
                }
            }
            var all = [String](repeating: "", count: asks.count)
            for await (index, answer) in group { all[index] = answer }
            return all
        }
        // Session 0 is asked 13 times: one take gets it, whether its own or a replay; the rest find it used.
        let zero = [answers[0]] + Array(answers[48..<60])
        #expect(zero.filter { $0 == "taken:payload of \(sessions[0].id)" }.count == 1, "\(zero)")
        #expect(zero.filter { $0 == "used" }.count == 12, "\(zero)")
        for index in 1..<48 {
            #expect(answers[index] == "taken:payload of \(sessions[index].id)", "take \(index): \(answers[index])")
        }
        #expect(Array(answers[60...]) == ["not found", "not found", "not found", "not found", "expired"], "\(Array(answers[60...]))")
        let takes = store.takes.takesSent.load(ordering: .relaxed), batches = store.takes.batchesSent.load(ordering: .relaxed)
        #expect(takes == asks.count)
        #expect(batches < takes / 2, "\(takes) takes went in \(batches) round trips")
        #expect(try test.psql("SELECT count(*) FROM verifierd_sessions WHERE taken_ms IS NOT NULL AND sealed IS NOT NULL") == "0",
                "no taken row keeps its payload")
    }
}
