import Foundation
import PostgresNIO
@testable import PostgresStore
import SessionStore
import Synchronization
import Testing
import TestSupport

/// The circuit, the shared deadline timer and the one-answer gate as values, without a database.
struct DatabaseCircuitRuleTests {
    let start = ContinuousClock.now

    @Test func anUnreachableOperationOpensItAndOneThatReachesClosesIt() {
        var circuit = DatabaseCircuit()
        #expect(circuit.refusal(now: start) == nil)
        let successWhileClosed = circuit.finished(unreachable: nil, now: start)
        #expect(!successWhileClosed, "a success on a closed circuit changes nothing")
        let opened = circuit.finished(unreachable: "take session took longer than 2 seconds", now: start)
        #expect(opened)
        #expect(circuit.isOpen)
        let refusal = circuit.refusal(now: start + .milliseconds(1_250))
        #expect(refusal == "not tried: the database has been unreachable for 1.2 s (take session took longer than 2 seconds); "
                + "it is probed until it answers")
        let failedProbe = circuit.finished(unreachable: "probe took longer than 2 seconds", now: start + .seconds(2))
        #expect(!failedProbe, "a failed probe keeps it open and does not start another probe")
        #expect(circuit.refusal(now: start + .seconds(3))?.contains("for 3.0 s (probe took longer") == true,
                "the time counts from the first failure; the reason is the latest")
        let reached = circuit.finished(unreachable: nil, now: start + .seconds(4))
        #expect(!reached, "closing is not opening")
        #expect(!circuit.isOpen && circuit.refusal(now: start + .seconds(4)) == nil)
    }

    @Test func onlyFailuresToReachTheDatabaseCount() {
        #expect(PostgresDatabase.isUnreachable(OperationTimeout()))
        #expect(!PostgresDatabase.isUnreachable(CancellationError()))
        #expect(!PostgresDatabase.isUnreachable(PostgresStoreError.corrupt("row")))
    }

    @Test func deadlinesExpireWhatIsDueOnceAndNothingElse() {
        // A tick of an hour: the test drives expireDue itself.
        let deadlines = OperationDeadlines(tick: .seconds(3600))
        defer { deadlines.stop() }
        let expired = Mutex<[String]>([])
        _ = deadlines.add(deadline: start + .milliseconds(100)) { expired.withLock { $0.append("early") } }
        let removed = deadlines.add(deadline: start + .milliseconds(100)) { expired.withLock { $0.append("removed") } }
        _ = deadlines.add(deadline: start + .seconds(10)) { expired.withLock { $0.append("late") } }
        deadlines.remove(removed)
        deadlines.expireDue(now: start + .milliseconds(99))
        #expect(expired.withLock { $0 }.isEmpty)
        deadlines.expireDue(now: start + .milliseconds(100))
        deadlines.expireDue(now: start + .seconds(1))
        #expect(expired.withLock { $0 } == ["early"])
        #expect(deadlines.pendingCount == 1)
        deadlines.stop()
        #expect(expired.withLock { $0 } == ["early", "late"], "stopping expires what is left")
        #expect(deadlines.pendingCount == 0)
    }

    @Test func theTickerExpiresWithoutHelp() async throws {
        let deadlines = OperationDeadlines(tick: .milliseconds(10))
        defer { deadlines.stop() }
        let expired = Atomic<Int>(0)
        _ = deadlines.add(deadline: .now + .milliseconds(20)) { expired.add(1, ordering: .relaxed) }
        for _ in 0..<500 where expired.load(ordering: .relaxed) == 0 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(expired.load(ordering: .relaxed) == 1)
    }

    @Test func theFirstAnswerWinsAndALosingWorkIsCancelled() async {
        // The work answers first: later answers are dropped.
        let first = OperationAnswer<Int>()
        let value = await withCheckedContinuation { continuation in
            first.wait(continuation)
            first.answer(.success(7), fromWork: true)
            first.answer(.failure(OperationTimeout()), fromWork: false)
        }
        #expect((try? value.get()) == 7)

        // The deadline answers first, before the caller waits: the work, attached later, is cancelled at once.
        let second = OperationAnswer<Int>()
        second.answer(.failure(OperationTimeout()), fromWork: false)
        let outcome = await withCheckedContinuation { continuation in second.wait(continuation) }
        #expect(throws: OperationTimeout.self) { try outcome.get() }
        let work = Task { () -> Void in
            while !Task.isCancelled { try? await Task.sleep(for: .milliseconds(5)) }
        }
        second.attach(work)
        await work.value
        #expect(work.isCancelled)
    }
}

/// The circuit against a real server that stops answering (SIGSTOP: connections stay open, nothing replies).
@Suite(.serialized, .enabled(if: PostgresTestCluster.enabled, "no PostgreSQL binaries (initdb, pg_ctl) found: install Debian's postgresql"))
struct DatabaseCircuitTests {
    @Test func aHungDatabaseCostsOneDeadlineThenFailsAtOnceUntilAProbeReachesIt() async throws {
        // A cluster of its own: freezing the shared one would stall other suites.
        let cluster = try PostgresTestCluster()
        defer { cluster.stopAndDelete() }
        let url = try cluster.makeDatabase()
        let database = try TestDatabase.open(url, timeout: .milliseconds(400), poolSize: 2, probeInterval: .milliseconds(100))
        defer { database.shutdown() }
        try await SchemaMigrations.migrate(database)
        let store = PostgresSessionStore(database: database, maximumSessions: 100)
        let now = Date(timeIntervalSince1970: 1_900_000_000)
        func record() -> SessionRecord {
            SessionRecord(id: SessionIdentifier.make(), kind: "web", createdAt: now, expiresAt: now.addingTimeInterval(300),
                          payload: SecretBytes(Array("payload".utf8)))
        }
        try await store.insert(record(), now: now)
        #expect(!database.circuitOpen)

        try cluster.freeze()
        var thawed = false
        defer { if !thawed { try? cluster.thaw() } }
        // The first operation waits its deadline and opens the circuit.
        guard case .unavailable(let first) = await store.take(id: SessionIdentifier.make(), kind: "web", now: now) else {
            Issue.record("a take on a hung database must be unavailable"); return
        }
        #expect(first.contains("took longer than"), "\(first)")
        #expect(database.circuitOpen)
        // The next ones are not tried at all: no operation reaches the pool except the probes.
        let attemptedBefore = database.attemptedOperations.load(ordering: .relaxed)
        let probesBefore = database.probes.load(ordering: .relaxed)
        for _ in 0..<50 {
            guard case .unavailable(let reason) = await store.take(id: SessionIdentifier.make(), kind: "web", now: now) else {
                Issue.record("a take while the circuit is open must be unavailable"); return
            }
            #expect(reason.contains("not tried: the database has been unreachable"), "\(reason)")
        }
        await #expect(throws: SessionStoreError.self) { try await store.insert(record(), now: now) }
        let probesDuring = database.probes.load(ordering: .relaxed) - probesBefore
        #expect(database.attemptedOperations.load(ordering: .relaxed) - attemptedBefore == probesDuring,
                "only probes went to the database while it was unreachable")
        #expect(database.refusedOperations.load(ordering: .relaxed) >= 51)
        #expect(database.unavailableReason != nil)

        // Back: a probe closes the circuit without any request, and operations work again.
        try cluster.thaw()
        thawed = true
        var closed = false
        for _ in 0..<200 {
            if !database.circuitOpen { closed = true; break }
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(closed, "a probe reached the database and closed the circuit")
        #expect(database.probes.load(ordering: .relaxed) > probesBefore)
        let again = record()
        try await store.insert(again, now: now)
        guard case .taken = await store.take(id: again.id, kind: "web", now: now) else {
            Issue.record("a take after the database came back must work"); return
        }
        #expect(database.unavailableReason == nil)
    }

    @Test func anSQLErrorFromAReachableDatabaseDoesNotOpenIt() async throws {
        let test = try await TestDatabase.make(timeout: .seconds(5))
        defer { test.database.shutdown() }
        await #expect(throws: PostgresStoreError.self) {
            _ = try await test.database.perform("divide") { client in
                try await client.query("SELECT 1 / 0", logger: test.database.logger).collect().count
            }
        }
        #expect(test.database.unavailableReason?.contains("division by zero") == true, "\(test.database.unavailableReason ?? "")")
        #expect(!test.database.circuitOpen, "the database answered: it is reachable")
        let count = try await test.database.perform("one") { client in
            try await client.query("SELECT 1", logger: test.database.logger).collect().count
        }
        #expect(count == 1)
        #expect(test.database.unavailableReason == nil)
    }
}
