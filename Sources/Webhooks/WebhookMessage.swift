import Foundation

/// One event to deliver to one integrator's endpoint, at least once: its id (the same `webhook-id` on every attempt,
/// so a receiver can drop repeats), the exact body, and where its delivery stands.
public struct WebhookMessage: Sendable, Equatable {
    /// `msg_` and 22 characters of base64url randomness.
    public let id: String
    /// The integrator whose endpoint receives it.
    public let integrator: String
    /// The JSON body, signed and sent as is (it may hold a report's personal data: never logged).
    public let body: [UInt8]
    public let createdAt: Date
    /// Attempts made so far.
    public var attempts: Int
    /// When the next attempt is due.
    public var nextAttemptAt: Date

    public init(id: String, integrator: String, body: [UInt8], createdAt: Date, attempts: Int = 0, nextAttemptAt: Date? = nil) {
        self.id = id
        self.integrator = integrator
        self.body = body
        self.createdAt = createdAt
        self.attempts = attempts
        self.nextAttemptAt = nextAttemptAt ?? createdAt
    }

    /// Whether `id` has the form this type writes (checked before an id read from disk names a file).
    public static func isWellFormedID(_ id: String) -> Bool {
        id.utf8.count == 26 && id.hasPrefix("msg_")
            && id.utf8.dropFirst(4).allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x2D || $0 == 0x5F }
    }
}
