import Foundation
import Synchronization

/// Long polls waiting for cross-device results: a poll registers under the result's id and is woken when this
/// process fills that result (the wallet's post), or when its own wait ends. At most ``maximumWaiters`` wait at once;
/// past it a poll is answered at once, as without `wait`. Replicas on a shared store also re-read the store while
/// waiting (an answer may reach another replica): the caller's loop does that at ``sharedStoreInterval``.
public final class ResultWaiters: Sendable {
    /// Polls waiting at once, in this process.
    public static let maximumWaiters = 4096
    /// How often a waiting poll re-reads a shared store.
    public static let sharedStoreInterval: Duration = .milliseconds(250)
    /// The longest `wait` a poll may ask for, in seconds.
    public static let maximumWaitSeconds = 30

    private enum Phase {
        /// Counted, its continuation not registered yet.
        case starting
        case waiting(id: String, CheckedContinuation<Void, Never>)
        /// Woken or timed out: a registration that comes late resumes at once.
        case done
    }

    private struct State {
        var phases: [UInt64: Phase] = [:]
        var byResult: [String: Set<UInt64>] = [:]
        var nextToken: UInt64 = 0
    }

    private let state = Mutex(State())

    /// A registry with no polls waiting.
    public init() {}

    /// Wakes every poll waiting for `id`.
    public func filled(_ id: String) {
        let woken = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            var continuations: [CheckedContinuation<Void, Never>] = []
            for token in state.byResult.removeValue(forKey: id) ?? [] {
                if case .waiting(_, let continuation)? = state.phases[token] { continuations.append(continuation) }
                state.phases[token] = .done
            }
            return continuations
        }
        for continuation in woken { continuation.resume() }
    }

    /// Waits until `id` is filled in this process or `timeout` passes; false at once when too many wait already.
    /// The caller reads the store before waiting and after.
    public func wait(for id: String, timeout: Duration) async -> Bool {
        let token = state.withLock { state -> UInt64? in
            guard state.phases.count < Self.maximumWaiters else { return nil }
            state.nextToken += 1
            state.phases[state.nextToken] = .starting
            // Known under its result from now on: a fill before the continuation is registered still wakes it.
            state.byResult[id, default: []].insert(state.nextToken)
            return state.nextToken
        }
        guard let token else { return false }
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let resumeNow = self.state.withLock { state -> Bool in
                        guard case .starting? = state.phases[token] else { return true }
                        state.phases[token] = .waiting(id: id, continuation)
                        return false
                    }
                    if resumeNow { continuation.resume() }
                }
            }
            group.addTask { try? await Task.sleep(for: timeout) }
            await group.next()
            // Whichever ended first, the other ends now: a waiting continuation is resumed once, the sleep cancelled.
            let pending = self.state.withLock { state -> CheckedContinuation<Void, Never>? in
                defer { state.phases[token] = .done }
                state.byResult[id]?.remove(token)
                if state.byResult[id]?.isEmpty == true { state.byResult[id] = nil }
                guard case .waiting(_, let continuation)? = state.phases[token] else { return nil }
                return continuation
            }
            pending?.resume()
            group.cancelAll()
        }
        _ = state.withLock { $0.phases.removeValue(forKey: token) }
        return true
    }
}
