import Dispatch
import Foundation
import Synchronization

/// Where zero-knowledge proofs are checked: on threads of its own (never Swift's cooperative pool, so a proof never
/// holds up other requests' tasks or `/healthz`), at most ``maximumRunning`` at once, at most ``maximumWaiting``
/// more queued in arrival order, and at most ``maximumPerCaller`` of one caller (an integrator) running and waiting
/// together, so that one caller who keeps sending proofs cannot hold the whole pool. Past that a batch is refused
/// at once, and the caller answers 503 with ``retryAfterSeconds``.
public final class ZKProofPool: Sendable {
    public let maximumRunning: Int
    public let maximumWaiting: Int
    /// The batches one caller may have running and waiting at once.
    public let maximumPerCaller: Int
    private let queue = DispatchQueue(label: "verifierd.zk-proofs", qos: .userInitiated, attributes: .concurrent)
    private let state: Mutex<State>

    struct State {
        var running = 0
        var waiting: [@Sendable () -> Void] = []
        /// Batches running and waiting, per caller.
        var byCaller: [String: Int] = [:]
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

    /// `maximumPerCaller` defaults to the whole pool (running and waiting): no share of its own.
    public init(maximumRunning: Int, maximumWaiting: Int, maximumPerCaller: Int? = nil) {
        self.maximumRunning = max(1, maximumRunning)
        self.maximumWaiting = max(0, maximumWaiting)
        self.maximumPerCaller = max(1, min(maximumPerCaller ?? .max, self.maximumRunning + self.maximumWaiting))
        state = Mutex(State())
    }

    /// Runs `work` on the pool's threads for `caller` and returns its result, or nil at once when ``maximumRunning``
    /// batches run and ``maximumWaiting`` wait already, or `caller` has ``maximumPerCaller`` batches in the pool.
    public func run<T: Sendable>(for caller: String = "", _ work: @escaping @Sendable () -> T) async -> T? {
        await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
            let start: @Sendable () -> Void = { [self] in
                queue.async { [self] in
                    let began = ContinuousClock.now
                    let value = work()
                    finished(caller: caller, after: ContinuousClock.now - began)
                    continuation.resume(returning: value)
                }
            }
            let admission: Bool? = state.withLock { state in
                guard state.byCaller[caller, default: 0] < maximumPerCaller else {
                    state.refused += 1
                    return nil
                }
                if state.running < maximumRunning {
                    state.running += 1
                    state.byCaller[caller, default: 0] += 1
                    return true
                }
                if state.waiting.count < maximumWaiting {
                    state.waiting.append(start)
                    state.byCaller[caller, default: 0] += 1
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

    private func finished(caller: String, after elapsed: Duration) {
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let next = state.withLock { state -> (@Sendable () -> Void)? in
            state.averageSeconds = 0.8 * state.averageSeconds + 0.2 * seconds
            state.completed += 1
            state.byCaller[caller] = state.byCaller[caller].flatMap { $0 > 1 ? $0 - 1 : nil }
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
