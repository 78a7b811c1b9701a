import Foundation

/// Where messages wait until delivered: written before the answer that caused them is acknowledged, so a delivery
/// survives a restart (and, in the database, the death of the replica that wrote it).
///
/// A delivery is claimed for a lease: the claimer reports its outcome before the lease ends, or another claimer (a
/// replica that lives on) takes the message again after it. Delivery is therefore at least once.
public protocol WebhookOutbox: Sendable {
    /// Stores a new message; fails when the outbox is full or cannot be written.
    func enqueue(_ message: WebhookMessage) async throws(WebhookOutboxError)
    /// Up to `limit` messages due at `now` and not leased, each leased until `now + lease`.
    func claim(now: Date, lease: TimeInterval, limit: Int) async throws(WebhookOutboxError) -> [WebhookMessage]
    /// The message was delivered: it is gone.
    func delivered(id: String) async throws(WebhookOutboxError)
    /// The attempt failed: the message waits until `message.nextAttemptAt` with `message.attempts` counted.
    func reschedule(_ message: WebhookMessage) async throws(WebhookOutboxError)
    /// The message is given up (too many attempts, too old): it is gone.
    func abandon(id: String) async throws(WebhookOutboxError)
    /// How many wait and the age of the oldest, for metrics.
    func statistics(now: Date) async -> WebhookOutboxStatistics
}

/// Counts for metrics (never a message's content).
public struct WebhookOutboxStatistics: Sendable, Equatable {
    public let pending: Int
    public let oldestAgeSeconds: Double

    public init(pending: Int, oldestAgeSeconds: Double) {
        self.pending = pending
        self.oldestAgeSeconds = oldestAgeSeconds
    }
}

/// Why the outbox could not do what was asked.
public enum WebhookOutboxError: Error, Sendable, Equatable {
    /// `maximum` messages wait already.
    case full(maximum: Int)
    /// The disk or the database cannot be used now.
    case unavailable(String)
}
