import Foundation
import PostgresNIO
import StatusList

/// The ``SharedStatusLists`` of replicas on one database: a row per list URI with the bytes of its last good fetch,
/// its last failure, and a claim (`claimed_until_ms`) that one replica at a time takes with a conditional update
/// before it fetches. The bytes are never trusted here: every replica verifies what it reads.
///
/// Bounded: a body is at most `maximumBytes` (the fetch limit; a longer one is not stored), and rows nobody read or
/// wrote for `forgetSeconds` are deleted by the next publication.
public final class PostgresStatusLists: SharedStatusLists {
    let database: PostgresDatabase
    public let maximumBytes: Int
    public let forgetSeconds: TimeInterval

    public init(database: PostgresDatabase, maximumBytes: Int, forgetSeconds: TimeInterval = 86_400) {
        self.database = database
        self.maximumBytes = maximumBytes
        self.forgetSeconds = forgetSeconds
    }


    public func latest(uri: String) async -> SharedStatusListCopy? {
        let logger = database.logger
        let row = try? await database.perform("read status list") { client -> SharedStatusListCopy? in
            let rows = try await client.query("""
                SELECT body, fetched_ms, failed_ms, failure FROM verifierd_status_lists WHERE uri = \(uri)
                """, logger: logger)
            for try await (body, fetched, failed, failure) in rows.decode((ByteBuffer?, Int64?, Int64?, String?).self) {
                // A failure older than the last good fetch is history, not news.
                let failureIsNewer = failed.map { failed in fetched.map { failed > $0 } ?? true } ?? false
                return SharedStatusListCopy(bytes: body.map { Array($0.readableBytesView) }, fetchedAt: fetched.map(StoredTime.date),
                                            failedAt: failureIsNewer ? failed.map(StoredTime.date) : nil,
                                            failure: failureIsNewer ? failure : nil)
            }
            return nil
        }
        return row ?? nil
    }

    public func claim(uri: String, seen: SharedStatusListCopy?, now: Date, until: Date) async -> Bool {
        let nowMs = StoredTime.milliseconds(now), untilMs = StoredTime.milliseconds(until)
        let seenFetched = seen?.fetchedAt.map(StoredTime.milliseconds), seenFailed = seen?.failedAt.map(StoredTime.milliseconds)
        let logger = database.logger
        // Without the database, each replica fetches for itself: better a second fetch than no answer. The claim is
        // a compare-and-set on what the claimant read: a publication or failure since then makes it fail.
        return (try? await database.perform("claim status list") { client -> Bool in
            let rows = try await client.query("""
                INSERT INTO verifierd_status_lists AS s (uri, claimed_until_ms, touched_ms)
                VALUES (\(uri), \(untilMs), \(nowMs))
                ON CONFLICT (uri) DO UPDATE SET claimed_until_ms = \(untilMs), touched_ms = \(nowMs)
                WHERE (s.claimed_until_ms IS NULL OR s.claimed_until_ms <= \(nowMs))
                  AND s.fetched_ms IS NOT DISTINCT FROM \(seenFetched)
                  AND (s.failed_ms IS NOT DISTINCT FROM \(seenFailed) OR (s.fetched_ms IS NOT NULL AND s.failed_ms <= s.fetched_ms))
                RETURNING 1
                """, logger: logger)
            for try await _ in rows { return true }
            return false
        }) ?? true
    }

    public func publish(uri: String, bytes: [UInt8], fetchedAt: Date) async {
        let fetchedMs = StoredTime.milliseconds(fetchedAt), forgetMs = fetchedMs - Int64(forgetSeconds * 1000)
        let logger = database.logger
        guard bytes.count <= maximumBytes else {
            await failed(uri: uri, reason: "the list is larger than \(maximumBytes) bytes", at: fetchedAt)
            return
        }
        let body = ByteBuffer(bytes: bytes)
        _ = try? await database.perform("publish status list") { client in
            try await client.query("""
                INSERT INTO verifierd_status_lists (uri, body, fetched_ms, touched_ms) VALUES (\(uri), \(body), \(fetchedMs), \(fetchedMs))
                ON CONFLICT (uri) DO UPDATE SET body = EXCLUDED.body, fetched_ms = EXCLUDED.fetched_ms,
                    claimed_until_ms = NULL, touched_ms = EXCLUDED.touched_ms
                """, logger: logger)
            try await client.query("DELETE FROM verifierd_status_lists WHERE touched_ms < \(forgetMs)", logger: logger)
        }
    }

    public func failed(uri: String, reason: String, at: Date) async {
        let atMs = StoredTime.milliseconds(at)
        let logger = database.logger
        let reason = String(reason.prefix(500))
        _ = try? await database.perform("record status list failure") { client in
            try await client.query("""
                INSERT INTO verifierd_status_lists (uri, failed_ms, failure, touched_ms) VALUES (\(uri), \(atMs), \(reason), \(atMs))
                ON CONFLICT (uri) DO UPDATE SET failed_ms = EXCLUDED.failed_ms, failure = EXCLUDED.failure,
                    claimed_until_ms = NULL, touched_ms = EXCLUDED.touched_ms
                """, logger: logger)
        }
    }
}
