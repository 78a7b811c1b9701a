import Foundation
import PostgresNIO
import TrustManagement

/// The ``VICALRefreshLedger`` of replicas on one database: a row per source with its last refresh and a claim taken
/// by a conditional update (compare-and-set on the refresh the claimant read). Without the database, a replica
/// refreshes for itself: a second fetch is better than a list left to go stale.
public final class PostgresVICALRefreshLedger: VICALRefreshLedger {
    let database: PostgresDatabase

    public init(database: PostgresDatabase) {
        self.database = database
    }


    public func record(source: String) async -> VICALRefreshRecord? {
        let logger = database.logger
        let found = try? await database.perform("read VICAL refresh") { client -> VICALRefreshRecord? in
            let rows = try await client.query("""
                SELECT at_ms, outcome, detail, etag, last_modified, consecutive_failures
                FROM verifierd_vical_refreshes WHERE source = \(source) AND at_ms IS NOT NULL
                """, logger: logger)
            for try await (at, outcome, detail, etag, lastModified, failures)
                in rows.decode((Int64, String?, String?, String?, String?, Int32).self) {
                return VICALRefreshRecord(at: StoredTime.date(at), outcome: outcome ?? "",
                                          detail: detail, etag: etag, lastModified: lastModified,
                                          consecutiveFailures: Int(failures))
            }
            return nil
        }
        return found ?? nil
    }

    public func claim(source: String, seen: VICALRefreshRecord?, now: Date, until: Date) async -> Bool {
        let nowMs = StoredTime.milliseconds(now), untilMs = StoredTime.milliseconds(until)
        let seenAt = seen.map { StoredTime.milliseconds($0.at) }
        let logger = database.logger
        return (try? await database.perform("claim VICAL refresh") { client -> Bool in
            let rows = try await client.query("""
                INSERT INTO verifierd_vical_refreshes AS r (source, claimed_until_ms) VALUES (\(source), \(untilMs))
                ON CONFLICT (source) DO UPDATE SET claimed_until_ms = \(untilMs)
                WHERE (r.claimed_until_ms IS NULL OR r.claimed_until_ms <= \(nowMs))
                  AND r.at_ms IS NOT DISTINCT FROM \(seenAt)
                RETURNING 1
                """, logger: logger)
            for try await _ in rows { return true }
            return false
        }) ?? true
    }

    public func finish(source: String, record: VICALRefreshRecord) async {
        let atMs = StoredTime.milliseconds(record.at), failures = Int32(clamping: record.consecutiveFailures)
        let detail = record.detail.map { String($0.prefix(1000)) }
        let logger = database.logger
        _ = try? await database.perform("record VICAL refresh") { client in
            try await client.query("""
                INSERT INTO verifierd_vical_refreshes
                    (source, at_ms, outcome, detail, etag, last_modified, consecutive_failures, claimed_until_ms)
                VALUES (\(source), \(atMs), \(record.outcome), \(detail), \(record.etag), \(record.lastModified), \(failures), NULL)
                ON CONFLICT (source) DO UPDATE SET at_ms = EXCLUDED.at_ms, outcome = EXCLUDED.outcome,
                    detail = EXCLUDED.detail, etag = EXCLUDED.etag, last_modified = EXCLUDED.last_modified,
                    consecutive_failures = EXCLUDED.consecutive_failures, claimed_until_ms = NULL
                """, logger: logger)
        }
    }
}
