import Dispatch
import Foundation
import Synchronization

/// Where zero-knowledge proofs are checked: on threads of its own (never Swift's cooperative pool, so a proof never
/// holds up other requests' tasks or `/healthz`), at most ``maximumRunning`` at once, at most ``maximumWaiting``
/// more queued in arrival order. Past that a batch is refused at once, and the caller answers 503 with
/// ``retryAfterSeconds``.
public final class ZKProofPool: Sendable {
    public let maximumRunning: Int
    public let maximumWaiting: Int
    private let queue = DispatchQueue(label: "verifierd.zk-proofs", qos: .userInitiated, attributes: .concurrent)
    private let state: Mutex<State>

    struct State {
        var running = 0
        var waiting: [@Sendable () -> Void] = []
        /// Seconds per batch, smoothed; starts at the measured cost of one published v7 proof.
        var averageSeconds = 0.5
        var completed = 0
        var refused = 0
    }

    /// What the pool is doing, for metrics and tests.
    public struct Statistics: Sendable, Equatable {
        public let running: Int
        public let waiting: Int
        public let completed: Int
        public let refused: Int
    }

    public init(maximumRunning: Int, maximumWaiting: Int) {
        self.maximumRunning = max(1, maximumRunning)
        self.maximumWaiting = max(0, maximumWaiting)
        state = Mutex(State())
    }

    /// Runs `work` on the pool's threads and returns its result, or nil at once when ``maximumRunning`` batches run
    /// and ``maximumWaiting`` wait already.
    public func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T? {
        await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
            let start: @Sendable () -> Void = { [self] in
                queue.async { [self] in
                    let began = ContinuousClock.now
                    let value = work()
                    finished(after: ContinuousClock.now - began)
                    continuation.resume(returning: value)
                }
            }
            let admission: Bool? = state.withLock { state in
                if state.running < maximumRunning {
                    state.running += 1
                    return true
                }
                if state.waiting.count < maximumWaiting {
                    state.waiting.append(start)
                    return false
                }
                state.refused += 1
                return nil
            }
            switch admission {
            case true?: start()
            case false?: break
            case nil: continuation.resume(returning: nil)
            }
        }
    }

    private func finished(after elapsed: Duration) {
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let next = state.withLock { state -> (@Sendable () -> Void)? in
            state.averageSeconds = 0.8 * state.averageSeconds + 0.2 * seconds
            state.completed += 1
            guard !state.waiting.isEmpty else {
                state.running -= 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?()
    }

    /// When a refused caller may expect room: the time to drain what runs and waits now, at least one second.
    public var retryAfterSeconds: Int {
        state.withLock { state in
            let batches = Double(state.running + state.waiting.count)
            return max(1, Int((batches * state.averageSeconds / Double(maximumRunning)).rounded(.up)))
        }
    }

    public var statistics: Statistics {
        state.withLock { Statistics(running: $0.running, waiting: $0.waiting.count, completed: $0.completed, refused: $0.refused) }
    }
}
