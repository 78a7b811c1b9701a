import Foundation
import Logging
import PostgresNIO
import TrustStore

/// The trust set in the database: one row per version in `verifierd_trust_versions`, each the whole set as a
/// document (certificates, metadata and source, the VICALs in force) with who made it and why.
///
/// A change runs in one transaction under an advisory lock: read the latest version, transform it, insert the
/// next one, `NOTIFY verifierd_trust`. Writers on every replica (admin API, CLI, VICAL imports) are therefore
/// serialized and none is lost; readers see only committed versions. The last `versionsKept` versions stay.
public final class PostgresTrustSet: SharedTrustSet {
    /// Which set: its table of versions, its notification channel and its advisory lock.
    public struct Table: Sendable, Equatable {
        public let name: String
        /// The channel every replica listens on; the payload is the new version number.
        public let channel: String
        let lockKey: Int64

        /// The trusted IACAs.
        public static let iaca = Table(name: "verifierd_trust_versions", channel: "verifierd_trust", lockKey: 0x7664_7472)
        /// The SD-JWT VC issuer anchors (migration 5).
        public static let sdJwtVcIssuers = Table(name: "verifierd_sd_jwt_vc_issuer_versions", channel: "verifierd_sd_jwt_vc_issuers",
                                                 lockKey: 0x7664_7473)
    }

    let database: PostgresDatabase
    /// Versions kept in the table (the latest included), for audit and rollback by hand.
    public let versionsKept: Int
    public let table: Table
    /// The IACA set's channel.
    public static let channel = Table.iaca.channel

    public init(database: PostgresDatabase, versionsKept: Int = 100, table: Table = .iaca) {
        self.database = database
        self.versionsKept = max(1, versionsKept)
        self.table = table
    }

    public var location: String { database.configuration.redactedLocation }

    public func latest() async throws(TrustDirectoryUpdateError<Never>) -> VersionedTrustSet {
        let logger = database.logger
        let table = table.name
        let row: (Int, String)?
        do {
            row = try await database.perform("read trust set") { client -> (Int, String)? in
                let rows = try await client.query("""
                    SELECT version, document::text FROM \(unescaped: table) ORDER BY version DESC LIMIT 1
                    """, logger: logger)
                for try await row in rows.decode((Int, String).self) { return row }
                return nil
            }
        } catch {
            throw .storage(error.description)
        }
        guard let row else { return VersionedTrustSet(version: 0, set: TrustSet(anchors: [])) }
        do {
            return VersionedTrustSet(version: row.0, set: try TrustSetDocument.decode(Array(row.1.utf8),
                                                                                     source: "trust version \(row.0)"))
        } catch {
            throw .storage(error.description)
        }
    }

    public func latestVersion() async throws(TrustDirectoryUpdateError<Never>) -> Int {
        let logger = database.logger
        let table = table.name
        do {
            return try await database.perform("read trust version") { client -> Int in
                let rows = try await client.query("SELECT coalesce(max(version), 0) FROM \(unescaped: table)",
                                                  logger: logger)
                for try await version in rows.decode(Int.self) { return version }
                return 0
            }
        } catch {
            throw .storage(error.description)
        }
    }

    public func recentChanges(limit: Int) async throws(TrustDirectoryUpdateError<Never>) -> [TrustChange] {
        let logger = database.logger
        let limit = max(0, min(limit, versionsKept))
        let table = table.name
        do {
            return try await database.perform("read trust changes") { client -> [TrustChange] in
                let rows = try await client.query("""
                    SELECT version, (extract(epoch FROM created_at) * 1000)::bigint, actor, action, request_id,
                           anchor_count, fingerprints
                    FROM \(unescaped: table) ORDER BY version DESC LIMIT \(limit)
                    """, logger: logger)
                var changes: [TrustChange] = []
                for try await (version, milliseconds, actor, action, requestID, anchorCount, fingerprints)
                        in rows.decode((Int, Int64, String, String, String?, Int, String).self) {
                    changes.append(TrustChange(
                        at: Date(timeIntervalSince1970: Double(milliseconds) / 1000), actor: actor, action: action,
                        requestID: requestID, version: version, anchorCount: anchorCount,
                        fingerprints: fingerprints.split(separator: ",").map(String.init)))
                }
                return changes
            }
        } catch {
            throw .storage(error.description)
        }
    }

    public func update<Failure: Error>(_ audit: TrustChangeAudit,
                                       _ transform: @escaping @Sendable (TrustSet) throws(Failure) -> TrustSet)
        async throws(TrustDirectoryUpdateError<Failure>) -> (previous: TrustSet, committed: VersionedTrustSet)
    {
        guard let result = try await commit(audit, onlyWhenEmpty: false, transform) else {
            throw .storage("the change was not committed")
        }
        return result
    }

    /// The transaction behind ``update(_:_:)``; with `onlyWhenEmpty`, commits only when no version exists yet
    /// (and returns nil otherwise).
    private func commit<Failure: Error>(_ audit: TrustChangeAudit, onlyWhenEmpty: Bool,
                                        _ transform: @escaping @Sendable (TrustSet) throws(Failure) -> TrustSet)
        async throws(TrustDirectoryUpdateError<Failure>) -> (previous: TrustSet, committed: VersionedTrustSet)?
    {
        let logger = database.logger
        let kept = versionsKept
        let table = self.table
        let refusal = RefusalBox<Failure>()
        let outcome: TrustCommitOutcome
        do {
            outcome = try await database.perform("change trust set") { client -> TrustCommitOutcome in
                try await client.withTransaction(logger: logger) { connection -> TrustCommitOutcome in
                    try await connection.query("SELECT pg_advisory_xact_lock(\(table.lockKey))", logger: logger)
                    var version = 0
                    var previous = TrustSet(anchors: [])
                    let rows = try await connection.query("""
                        SELECT version, document::text FROM \(unescaped: table.name) ORDER BY version DESC LIMIT 1
                        """, logger: logger)
                    for try await row in rows.decode((Int, String).self) {
                        version = row.0
                        if onlyWhenEmpty { return .notEmpty }
                        do {
                            previous = try TrustSetDocument.decode(Array(row.1.utf8), source: "trust version \(row.0)")
                        } catch {
                            return .unreadable("\(error)")
                        }
                    }
                    let updated: TrustSet
                    do throws(Failure) {
                        updated = try transform(previous).normalized()
                    } catch {
                        refusal.store(error)
                        throw TransformRefused()
                    }
                    let next = version + 1
                    let document = String(decoding: TrustSetDocument.encode(updated), as: UTF8.self)
                    try await connection.query("""
                        INSERT INTO \(unescaped: table.name)
                            (version, document, anchor_count, actor, action, request_id, fingerprints)
                        VALUES (\(next), \(document)::jsonb, \(updated.anchors.count), \(audit.actor), \(audit.action),
                                \(audit.requestID), \(audit.fingerprints.joined(separator: ",")))
                        """, logger: logger)
                    try await connection.query("DELETE FROM \(unescaped: table.name) WHERE version <= \(next - kept)",
                                               logger: logger)
                    try await connection.query("SELECT pg_notify(\(table.channel), \(String(next)))", logger: logger)
                    return .committed(previous, VersionedTrustSet(version: next, set: updated))
                }
            }
        } catch {
            if let refused = refusal.error { throw .rejected(refused) }
            throw .storage("\(error)")
        }
        switch outcome {
        case .committed(let previous, let committed): return (previous, committed)
        case .notEmpty: return nil
        case .unreadable(let reason): throw .storage(reason)
        }
    }

    /// Writes `set` as the first version when the table has none (the first replica to start seeds it from its
    /// directory); does nothing otherwise. Returns whether it wrote.
    public func seedIfEmpty(_ set: TrustSet, actor: String) async throws(TrustDirectoryUpdateError<Never>) -> Bool {
        let audit = TrustChangeAudit(actor: actor, action: "seed", requestID: nil, fingerprints: set.anchors.map(\.sha256))
        return try await commit(audit, onlyWhenEmpty: true) { (_) throws(Never) in set } != nil
    }
}

/// What a trust transaction decided.
enum TrustCommitOutcome: Sendable {
    case committed(TrustSet, VersionedTrustSet)
    /// `onlyWhenEmpty` and a version exists.
    case notEmpty
    case unreadable(String)
}

/// Rolls the transaction back when the transform refuses the change.
struct TransformRefused: Error {}

/// Carries the transform's typed refusal out of the transaction closure (which throws untyped errors).
final class RefusalBox<Failure: Error>: @unchecked Sendable {
    // Written once inside the transaction, read after it ended: no concurrent access.
    private(set) var error: Failure?
    func store(_ error: Failure) { self.error = error }
}
