import Synchronization

/// The one answer of a database operation run under a deadline: whichever comes first of the work's own result, its
/// deadline or the caller's cancellation resumes the caller, once; the others are dropped, and the work is
/// cancelled when it lost.
final class OperationAnswer<Value: Sendable>: Sendable {
    typealias Outcome = Result<Value, any Error>

    private enum Waiter: Sendable {
        /// Nobody waits yet; an answer that came first is kept here.
        case idle(Outcome?)
        case waiting(CheckedContinuation<Outcome, Never>)
        case answered
    }

    private struct State: Sendable {
        var waiter: Waiter = .idle(nil)
        var work: Task<Void, Never>?
        var workLost = false
    }

    private let state = Mutex(State())

    /// The caller waits here (once).
    func wait(_ continuation: CheckedContinuation<Outcome, Never>) {
        let early: Outcome? = state.withLock { state in
            switch state.waiter {
            case .idle(let outcome?):
                state.waiter = .answered
                return outcome
            case .idle(nil):
                state.waiter = .waiting(continuation)
                return nil
            case .waiting, .answered:
                preconditionFailure("OperationAnswer.wait called twice")
            }
        }
        if let early { continuation.resume(returning: early) }
    }

    /// The task doing the work: cancelled at once if the operation was already answered otherwise.
    func attach(_ work: Task<Void, Never>) {
        let cancel = state.withLock { state in
            state.work = work
            return state.workLost
        }
        if cancel { work.cancel() }
    }

    /// Answers the caller unless it was answered; `fromWork` is false for a deadline or a cancellation, which then
    /// cancel the work.
    func answer(_ outcome: Outcome, fromWork: Bool) {
        let (continuation, work): (CheckedContinuation<Outcome, Never>?, Task<Void, Never>?) = state.withLock { state in
            let waiting: CheckedContinuation<Outcome, Never>?
            switch state.waiter {
            case .answered, .idle(.some):
                return (nil, nil)
            case .idle(nil):
                state.waiter = .idle(outcome)
                waiting = nil
            case .waiting(let continuation):
                state.waiter = .answered
                waiting = continuation
            }
            // A deadline or a cancellation that wins cancels the work (now, or when it is attached).
            if !fromWork { state.workLost = true }
            return (waiting, fromWork ? nil : state.work)
        }
        continuation?.resume(returning: outcome)
        work?.cancel()
    }
}
