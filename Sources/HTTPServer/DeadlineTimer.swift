import Dispatch

/// A connection's one deadline on a one-shot Dispatch timer. Moving the deadline later does not reschedule the timer
/// (a system call on nearly every request): it fires early, finds the deadline moved, and is scheduled once more.
/// Used on the connection's queue only.
final class DeadlineTimer {
    private let source: any DispatchSourceTimer
    private var deadline = DispatchTime.distantFuture
    /// When the timer is set to fire.
    private var firesAt = DispatchTime.distantFuture

    /// A timer that calls `fired` on `queue` (not yet armed).
    init(queue: DispatchQueue, fired: @escaping @Sendable () -> Void) {
        source = DispatchSource.makeTimerSource(queue: queue)
        source.setEventHandler(handler: fired)
        source.schedule(deadline: .distantFuture)
        source.resume()
    }

    /// Sets the deadline `interval` from now.
    func set(after interval: Duration) {
        deadline = .now() + interval.dispatchInterval
        if deadline < firesAt {
            firesAt = deadline
            source.schedule(deadline: deadline)
        }
    }

    /// Forgets the deadline; a pending fire finds nothing to do.
    func clear() {
        deadline = .distantFuture
    }

    /// Called when the timer fired: true when the deadline has passed (it is then cleared), false when it fired early
    /// because the deadline moved later (it is then scheduled again).
    func deadlinePassed() -> Bool {
        firesAt = .distantFuture  // one-shot: it has fired
        guard DispatchTime.now() >= deadline else {
            firesAt = deadline
            source.schedule(deadline: deadline)
            return false
        }
        deadline = .distantFuture
        return true
    }

    func cancel() {
        source.cancel()
    }
}
