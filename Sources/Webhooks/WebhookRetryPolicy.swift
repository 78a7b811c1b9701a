import Foundation

/// When a failed delivery is tried again, and when it is given up: the wait doubles from `baseDelay` up to
/// `maximumDelay`, with up to a fifth more at random so receivers that failed together are not hit together again;
/// after `maximumAttempts` attempts, or once the message is `maximumAge` old, it is abandoned.
public struct WebhookRetryPolicy: Sendable, Equatable {
    public var baseDelay: TimeInterval
    public var maximumDelay: TimeInterval
    public var maximumAttempts: Int
    public var maximumAge: TimeInterval

    public init(baseDelay: TimeInterval = 1, maximumDelay: TimeInterval = 600, maximumAttempts: Int = 15,
                maximumAge: TimeInterval = 86_400) {
        self.baseDelay = max(0.01, baseDelay)
        self.maximumDelay = max(self.baseDelay, maximumDelay)
        self.maximumAttempts = max(1, maximumAttempts)
        self.maximumAge = max(1, maximumAge)
    }

    /// The wait after the `attempts`-th failed attempt (1 for the first); `jitter` in 0...1.
    public func delay(afterAttempt attempts: Int, jitter: Double) -> TimeInterval {
        let doubled = baseDelay * pow(2, Double(min(max(0, attempts - 1), 30)))
        return min(maximumDelay, doubled) * (1 + 0.2 * min(1, max(0, jitter)))
    }

    /// Whether a message that has had `attempts` attempts, created at `createdAt`, is given up at `now`.
    public func givesUp(attempts: Int, createdAt: Date, now: Date) -> Bool {
        attempts >= maximumAttempts || now.timeIntervalSince(createdAt) >= maximumAge
    }
}
