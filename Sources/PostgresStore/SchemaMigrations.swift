import Logging
import PostgresNIO

/// The schema, as numbered migrations applied in order and recorded in `verifierd_schema_migrations`.
///
/// Every start-up (and `verifierd store migrate`) applies the missing ones in one transaction that first takes a
/// transaction-level advisory lock, so replicas starting together apply each migration exactly once; a database
/// newer than this binary (a migration it does not know) is refused rather than written to.
public enum SchemaMigrations {
    struct Migration: Sendable {
        let version: Int
        let name: String
        let statements: [String]
    }

    /// The advisory lock every migration run takes (an arbitrary constant: "vd" and 16-5).
    static let lockKey: Int64 = 0x7664_1605

    static let all: [Migration] = [
        Migration(version: 1, name: "sessions and trust versions", statements: [
            """
            CREATE TABLE verifierd_sessions (
                id text PRIMARY KEY,
                kind text NOT NULL,
                created_ms bigint NOT NULL,
                expires_ms bigint NOT NULL,
                sealed bytea,
                taken_ms bigint,
                forget_ms bigint NOT NULL
            )
            """,
            "CREATE INDEX verifierd_sessions_forget ON verifierd_sessions (forget_ms)",
            "CREATE INDEX verifierd_sessions_live ON verifierd_sessions (expires_ms) WHERE sealed IS NOT NULL",
            """
            CREATE TABLE verifierd_trust_versions (
                version bigint PRIMARY KEY,
                document jsonb NOT NULL,
                anchor_count integer NOT NULL,
                created_at timestamptz NOT NULL DEFAULT now(),
                actor text NOT NULL,
                action text NOT NULL,
                request_id text,
                fingerprints text NOT NULL
            )
            """,
        ]),
        Migration(version: 2, name: "session owners", statements: [
            "ALTER TABLE verifierd_sessions ADD COLUMN owner text NOT NULL DEFAULT ''",
            """
            CREATE INDEX verifierd_sessions_live_owner ON verifierd_sessions (kind, owner, expires_ms)
            WHERE sealed IS NOT NULL
            """,
        ]),
        Migration(version: 3, name: "shared status lists", statements: [
            """
            CREATE TABLE verifierd_status_lists (
                uri text PRIMARY KEY,
                body bytea,
                fetched_ms bigint,
                failed_ms bigint,
                failure text,
                claimed_until_ms bigint,
                touched_ms bigint NOT NULL
            )
            """,
            "CREATE INDEX verifierd_status_lists_touched ON verifierd_status_lists (touched_ms)",
        ]),
        Migration(version: 4, name: "shared VICAL refreshes", statements: [
            """
            CREATE TABLE verifierd_vical_refreshes (
                source text PRIMARY KEY,
                at_ms bigint,
                outcome text,
                detail text,
                etag text,
                last_modified text,
                consecutive_failures integer NOT NULL DEFAULT 0,
                claimed_until_ms bigint
            )
            """,
        ]),
        Migration(version: 5, name: "SD-JWT VC issuer trust versions", statements: [
            """
            CREATE TABLE verifierd_sd_jwt_vc_issuer_versions (
                version bigint PRIMARY KEY,
                document jsonb NOT NULL,
                anchor_count integer NOT NULL,
                created_at timestamptz NOT NULL DEFAULT now(),
                actor text NOT NULL,
                action text NOT NULL,
                request_id text,
                fingerprints text NOT NULL
            )
            """,
        ]),
        Migration(version: 6, name: "webhook outbox", statements: [
            """
            CREATE TABLE verifierd_webhook_outbox (
                id text PRIMARY KEY,
                integrator text NOT NULL,
                sealed bytea NOT NULL,
                created_ms bigint NOT NULL,
                attempts integer NOT NULL DEFAULT 0,
                next_attempt_ms bigint NOT NULL,
                leased_until_ms bigint NOT NULL DEFAULT 0
            )
            """,
            "CREATE INDEX verifierd_webhook_outbox_due ON verifierd_webhook_outbox (next_attempt_ms)",
        ]),
        Migration(version: 7, name: "session takes planned once", statements: [TakeSessionsStatement.function]),
        Migration(version: 8, name: "session reads", statements: [
            "ALTER TABLE verifierd_sessions ADD COLUMN reads integer NOT NULL DEFAULT 0",
        ]),
    ]

    /// The newest schema version this binary knows.
    public static var latestVersion: Int { all.last?.version ?? 0 }

    /// Applies the missing migrations; returns the versions applied by this call (empty when up to date).
    @discardableResult
    public static func migrate(_ database: PostgresDatabase) async throws(PostgresStoreError) -> [Int] {
        let logger = database.logger
        let outcome: Result<[Int], PostgresStoreError> = try await database.perform("migrate") { client in
            try await client.withTransaction(logger: logger) { connection -> Result<[Int], PostgresStoreError> in
                try await connection.query("SELECT pg_advisory_xact_lock(\(lockKey))", logger: logger)
                try await connection.query("""
                    CREATE TABLE IF NOT EXISTS verifierd_schema_migrations (
                        version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())
                    """, logger: logger)
                var applied = Set<Int>()
                for try await version in try await connection.query(
                    "SELECT version FROM verifierd_schema_migrations", logger: logger).decode(Int.self) {
                    applied.insert(version)
                }
                if let newest = applied.max(), newest > latestVersion {
                    return .failure(.configuration(setting: "store.url", reason:
                        "the database schema is version \(newest), newer than this verifierd (\(latestVersion)); upgrade verifierd"))
                }
                var done: [Int] = []
                for migration in all where !applied.contains(migration.version) {
                    for statement in migration.statements {
                        try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                    }
                    try await connection.query(
                        "INSERT INTO verifierd_schema_migrations (version, name) VALUES (\(migration.version), \(migration.name))",
                        logger: logger)
                    done.append(migration.version)
                }
                return .success(done)
            }
        }
        let applied = try outcome.get()
        if !applied.isEmpty {
            logger.notice("database schema migrated", metadata: [
                "applied": .array(applied.map { .stringConvertible($0) }), "version": .stringConvertible(latestVersion)])
        }
        return applied
    }
}
