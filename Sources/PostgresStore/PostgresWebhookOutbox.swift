import Foundation
import PostgresNIO
import SessionStore
import Webhooks

/// The ``WebhookOutbox`` of replicas on one database: a row per message, its body sealed like a session's
/// (`store.sessionKeyFile`, AES-GCM bound to the message id). A claim leases rows with `FOR UPDATE SKIP LOCKED`, so
/// replicas never claim the same message at once, and a message whose replica died is claimed again when its lease
/// ends.
public final class PostgresWebhookOutbox: WebhookOutbox {
    static let sealedKind = "webhook-message"
    let database: PostgresDatabase
    let sealing: SessionSealingKey
    public let maximumMessages: Int

    public init(database: PostgresDatabase, maximumMessages: Int = 10_000) {
        self.database = database
        self.sealing = database.configuration.sessionKey
        self.maximumMessages = max(1, maximumMessages)
    }

    private func seal(_ message: WebhookMessage) throws(WebhookOutboxError) -> [UInt8] {
        let record = SessionRecord(id: message.id, kind: SessionKind(rawValue: Self.sealedKind), createdAt: message.createdAt,
                                   expiresAt: message.createdAt, payload: SecretBytes(message.body))
        do {
            return try sealing.seal(record)
        } catch {
            throw .unavailable("cannot seal the message")
        }
    }

    private static func unavailable(_ error: PostgresStoreError) -> WebhookOutboxError {
        .unavailable("\(error)")
    }

    public func enqueue(_ message: WebhookMessage) async throws(WebhookOutboxError) {
        let sealed = ByteBuffer(bytes: try seal(message))
        let createdMs = StoredTime.milliseconds(message.createdAt), nextMs = StoredTime.milliseconds(message.nextAttemptAt)
        let maximum = Int64(maximumMessages)
        let logger = database.logger
        let stored: Bool
        do {
            stored = try await database.perform("enqueue webhook") { client -> Bool in
                let rows = try await client.query("""
                    INSERT INTO verifierd_webhook_outbox (id, integrator, sealed, created_ms, attempts, next_attempt_ms)
                    SELECT \(message.id), \(message.integrator), \(sealed), \(createdMs), 0, \(nextMs)
                    WHERE (SELECT count(*) FROM verifierd_webhook_outbox) < \(maximum)
                    RETURNING 1
                    """, logger: logger)
                for try await _ in rows { return true }
                return false
            }
        } catch {
            throw Self.unavailable(error)
        }
        guard stored else { throw .full(maximum: maximumMessages) }
    }

    public func claim(now: Date, lease: TimeInterval, limit: Int) async throws(WebhookOutboxError) -> [WebhookMessage] {
        let nowMs = StoredTime.milliseconds(now), leaseMs = StoredTime.milliseconds(now.addingTimeInterval(lease))
        let count = Int64(max(1, limit))
        let logger = database.logger
        let sealing = self.sealing
        let rows: [(String, String, [UInt8], Int64, Int32, Int64)]
        do {
            rows = try await database.perform("claim webhooks") { client in
                let answer = try await client.query("""
                    UPDATE verifierd_webhook_outbox SET leased_until_ms = \(leaseMs)
                    WHERE id IN (SELECT id FROM verifierd_webhook_outbox
                                 WHERE next_attempt_ms <= \(nowMs) AND leased_until_ms <= \(nowMs)
                                 ORDER BY next_attempt_ms LIMIT \(count) FOR UPDATE SKIP LOCKED)
                    RETURNING id, integrator, sealed, created_ms, attempts, next_attempt_ms
                    """, logger: logger)
                var found: [(String, String, [UInt8], Int64, Int32, Int64)] = []
                for try await (id, integrator, sealed, created, attempts, next)
                    in answer.decode((String, String, ByteBuffer, Int64, Int32, Int64).self) {
                    found.append((id, integrator, Array(sealed.readableBytesView), created, attempts, next))
                }
                return found
            }
        } catch {
            throw Self.unavailable(error)
        }
        var messages: [WebhookMessage] = []
        for (id, integrator, sealed, created, attempts, next) in rows {
            let createdAt = StoredTime.date(created)
            guard let body = try? sealing.open(sealed, id: id, kind: Self.sealedKind, expiresAt: createdAt) else {
                // A row that does not open with this key (another key, or tampered) is given up, never sent.
                try await abandon(id: id)
                continue
            }
            messages.append(WebhookMessage(id: id, integrator: integrator, body: body.bytes, createdAt: createdAt,
                                           attempts: Int(attempts), nextAttemptAt: StoredTime.date(next)))
        }
        return messages
    }

    public func delivered(id: String) async throws(WebhookOutboxError) {
        try await delete(id, operation: "deliver webhook")
    }

    public func abandon(id: String) async throws(WebhookOutboxError) {
        try await delete(id, operation: "abandon webhook")
    }

    private func delete(_ id: String, operation: String) async throws(WebhookOutboxError) {
        let logger = database.logger
        do {
            try await database.perform(operation) { client in
                _ = try await client.query("DELETE FROM verifierd_webhook_outbox WHERE id = \(id)", logger: logger)
            }
        } catch {
            throw Self.unavailable(error)
        }
    }

    public func reschedule(_ message: WebhookMessage) async throws(WebhookOutboxError) {
        let nextMs = StoredTime.milliseconds(message.nextAttemptAt), attempts = Int32(clamping: message.attempts)
        let logger = database.logger
        do {
            try await database.perform("reschedule webhook") { client in
                _ = try await client.query("""
                    UPDATE verifierd_webhook_outbox SET attempts = \(attempts), next_attempt_ms = \(nextMs), leased_until_ms = 0
                    WHERE id = \(message.id)
                    """, logger: logger)
            }
        } catch {
            throw Self.unavailable(error)
        }
    }

    public func statistics(now: Date) async -> WebhookOutboxStatistics {
        let logger = database.logger
        let nowMs = StoredTime.milliseconds(now)
        let found = try? await database.perform("count webhooks") { client -> WebhookOutboxStatistics in
            let rows = try await client.query("""
                SELECT count(*), coalesce(min(created_ms), \(nowMs)) FROM verifierd_webhook_outbox
                """, logger: logger)
            for try await (count, oldest) in rows.decode((Int64, Int64).self) {
                return WebhookOutboxStatistics(pending: Int(count), oldestAgeSeconds: max(0, Double(nowMs - oldest) / 1000))
            }
            return WebhookOutboxStatistics(pending: 0, oldestAgeSeconds: 0)
        }
        return found ?? WebhookOutboxStatistics(pending: 0, oldestAgeSeconds: 0)
    }
}
