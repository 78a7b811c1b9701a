import Logging
import PostgresNIO
import Synchronization

/// Sends session takes to the database in batches: a take goes at once when fewer than `concurrentBatches` batches
/// are in flight, and the takes that arrive meanwhile go together in the next round trip (``TakeSessionsStatement``): one query,
/// one commit and one WAL flush for all of them, so that under load the database's work and the client's round
/// trips per take fall instead of queueing. No take waits for a timer: a batch is what accumulated meanwhile.
///
/// What each take gets is what it would get alone: its row with the payload if it took it, or the row as it was
/// (taken before, expired, another owner's) from a second read for the takes the batch did not take.
final class SessionTakeBatcher: Sendable {
    /// One take, as the statement binds it.
    struct Take: Sendable {
        let id: String
        let kind: String
        let anyOwner: Bool
        let owner: String
        let nowMilliseconds: Int64
    }

    typealias Row = (created: Int64, expires: Int64, sealed: [UInt8]?, taken: Int64?, owner: String)
    /// `taken`: this take took the row. Nil: no such session for this kind and owner.
    typealias Found = (taken: Bool, row: Row)?
    typealias Answer = Result<Found, PostgresStoreError>

    private struct Waiting: Sendable {
        let take: Take
        let continuation: CheckedContinuation<Answer, Never>
    }

    private struct State: Sendable {
        var waiting: [Waiting] = []
        var inFlight = 0
    }

    let database: PostgresDatabase
    /// Batches in flight at once (the pool's connections).
    let concurrentBatches: Int
    /// Most takes in one statement.
    let maximumBatch: Int
    private let state = Mutex(State())
    /// Takes sent, and batches they went in (for the tests and the benchmark's profile).
    let takesSent = Atomic<Int>(0)
    let batchesSent = Atomic<Int>(0)

    init(database: PostgresDatabase, concurrentBatches: Int, maximumBatch: Int = 64) {
        self.database = database
        self.concurrentBatches = max(1, concurrentBatches)
        self.maximumBatch = max(1, maximumBatch)
    }

    func take(_ take: Take) async -> Answer {
        await withCheckedContinuation { continuation in
            let batch: [Waiting]? = state.withLock { state in
                state.waiting.append(Waiting(take: take, continuation: continuation))
                guard state.inFlight < concurrentBatches else { return nil }
                state.inFlight += 1
                return next(&state)
            }
            if let batch { Task { await self.send(batch) } }
        }
    }

    private func next(_ state: inout State) -> [Waiting] {
        let count = min(maximumBatch, state.waiting.count)
        let batch = Array(state.waiting.prefix(count))
        state.waiting.removeFirst(count)
        return batch
    }

    /// Sends `batch`, then whatever accumulated meanwhile, until nothing waits.
    private func send(_ first: [Waiting]) async {
        var batch = first
        while true {
            await answer(batch)
            let more: [Waiting]? = state.withLock { state in
                guard !state.waiting.isEmpty else {
                    state.inFlight -= 1
                    return nil
                }
                return next(&state)
            }
            guard let more else { return }
            batch = more
        }
    }

    private func answer(_ batch: [Waiting]) async {
        // A session named twice in one batch is taken by the first; the others read it afterwards (taken).
        var seen = Set<String>()
        let distinct = batch.map(\.take).filter { seen.insert($0.id).inserted }
        takesSent.add(batch.count, ordering: .relaxed)
        batchesSent.add(1, ordering: .relaxed)
        let logger = database.logger
        let outcome: Result<[Found], PostgresStoreError>
        do {
            outcome = .success(try await database.perform("take sessions") { client -> [Found] in
                var taken: [String: Row] = [:]
                for try await row in try await client.execute(TakeSessionsStatement(takes: distinct), logger: logger) {
                    taken[row.0] = (row.1, row.2, row.3.map { Array($0.readableBytesView) }, row.4, row.5)
                }
                var answers: [Found] = []
                var given = Set<String>()
                for waiting in batch {
                    let take = waiting.take
                    if let row = taken[take.id], given.insert(take.id).inserted {
                        answers.append((true, row))
                        continue
                    }
                    // Not taken by this batch: as the row is now, if this kind and owner may see it.
                    let rows = try await client.query("""
                        SELECT created_ms, expires_ms, sealed, taken_ms, owner FROM verifierd_sessions
                        WHERE id = \(take.id) AND kind = \(take.kind) AND (\(take.anyOwner) OR owner = \(take.owner))
                        """, logger: logger)
                    var found: Found = nil
                    for try await row in rows.decode((Int64, Int64, ByteBuffer?, Int64?, String).self) {
                        found = (false, (row.0, row.1, row.2.map { Array($0.readableBytesView) }, row.3, row.4))
                    }
                    answers.append(found)
                }
                return answers
            })
        } catch {
            outcome = .failure(error)
        }
        for (index, waiting) in batch.enumerated() {
            switch outcome {
            case .success(let answers): waiting.continuation.resume(returning: .success(answers[index]))
            case .failure(let error): waiting.continuation.resume(returning: .failure(error))
            }
        }
    }
}
