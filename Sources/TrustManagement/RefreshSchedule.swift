import Foundation

/// When a scheduled VICAL refresh runs next: the source's interval after a success, and after a failure a retry that
/// starts at `retrySeconds` and doubles with each consecutive failure, never beyond the interval.
struct RefreshSchedule: Sendable, Equatable {
    let intervalSeconds: TimeInterval
    let retrySeconds: TimeInterval

    /// Seconds to wait after a refresh, given how many refreshes in a row have failed (0 after a success).
    /// `jitter` in [0, 1) spreads replicas' retries over up to a tenth of the delay.
    func delay(consecutiveFailures: Int, jitter: Double = 0) -> TimeInterval {
        guard consecutiveFailures > 0 else { return intervalSeconds }
        let doublings = Double(min(consecutiveFailures - 1, 30))
        let backoff = min(intervalSeconds, retrySeconds * pow(2, doublings))
        return min(intervalSeconds, backoff * (1 + 0.1 * min(max(jitter, 0), 0.999)))
    }
}
