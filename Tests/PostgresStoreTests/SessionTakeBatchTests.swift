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

    /// The take's plan is made once per connection (schema version 7's function) and is a lookup by key whatever the
    /// table's size: on a table of two rows, where PostgreSQL's own choice is a scan, the function still scans nothing.
    @Test func theTakePlanLooksUpKeysEvenOnATinyTable() async throws {
        let test = try await TestDatabase.make()
        defer { test.database.shutdown() }
        let store = PostgresSessionStore(database: test.database, maximumSessions: 10)
        var ids: [String] = []
        for _ in 0..<2 {
            let record = SessionRecord(id: SessionIdentifier.make(), kind: "web", createdAt: now,
                                       expiresAt: now.addingTimeInterval(300), payload: SecretBytes([7]))
            try await store.insert(record, now: now)
            ids.append(record.id)
        }
        _ = try test.psql("ANALYZE verifierd_sessions")
        let scans = "SELECT seq_scan || ' ' || idx_scan FROM pg_stat_xact_user_tables WHERE relname = 'verifierd_sessions'"
        let arguments = "ARRAY['\(ids[0])'], ARRAY['web'], ARRAY[true], ARRAY[''], ARRAY[1]::int8[]"
        // Through the function: one row taken, by the primary key, no scan.
        // psql prints each statement's answer, a line each: the rows taken, then the scans (sequential, by index).
        let planned = try test.psql("SELECT count(*) FROM verifierd_take_sessions(\(arguments)); \(scans)")
        #expect(planned.split(separator: "\n") == ["1", "0 2"], "through the function: \(planned)")
        // The same statement without the function's settings, planned for these arguments: PostgreSQL scans.
        let unplanned = TakeSessionsStatement.takeQuery
            .replacingOccurrences(of: "unnest(ids, kinds, any_owners, owners, now_ms)",
                                  with: "unnest(ARRAY['\(ids[1])'], ARRAY['web'], ARRAY[true], ARRAY[''], ARRAY[1]::int8[])")
        // Its answer is the row taken (its ID first), then the scans.
        let plain = try test.psql("\(unplanned); \(scans)").split(separator: "\n")
        #expect(plain.count == 2 && plain.first?.hasPrefix(ids[1]) == true && plain.last?.hasPrefix("0 ") == false,
                "without the settings: \(plain)")
        // Both takes took their session.
        #expect(try test.psql("SELECT count(*) FROM verifierd_sessions WHERE taken_ms IS NOT NULL") == "2")
    }
}
