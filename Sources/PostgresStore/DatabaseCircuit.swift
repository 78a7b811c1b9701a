/// Whether operations may go to the database. Closed while it answers; opened by an operation that found it
/// unreachable (a timeout, a connection that failed or was refused, a server shutting down or out of connections),
/// after which operations fail at once instead of each waiting the full deadline. While it is open a probe (one
/// query at a time, every probe interval) tries the database; the first operation or probe that reaches it closes it.
///
/// A value without a clock of its own: the caller passes the time, so the rules are tested without waiting.
struct DatabaseCircuit: Sendable, Equatable {
    enum State: Sendable, Equatable {
        case closed
        /// `reason`: what the operation that opened it, or the last probe, met.
        case open(since: ContinuousClock.Instant, reason: String)
    }

    private(set) var state: State = .closed

    var isOpen: Bool {
        if case .open = state { return true }
        return false
    }

    /// Nil when an operation may go to the database now; otherwise why it fails at once.
    func refusal(now: ContinuousClock.Instant) -> String? {
        guard case .open(let since, let reason) = state else { return nil }
        return Self.refusal(reason: reason, since: since, now: now)
    }

    /// An operation or probe ended; `unreachable` is nil when it reached the database (even with an SQL error).
    /// Returns true when this opened the circuit (the caller then starts the probe).
    mutating func finished(unreachable reason: String?, now: ContinuousClock.Instant) -> Bool {
        switch (state, reason) {
        case (.closed, let reason?):
            state = .open(since: now, reason: reason)
            return true
        case (.open(let since, _), let reason?):
            state = .open(since: since, reason: reason)
            return false
        case (.open, nil):
            state = .closed
            return false
        case (.closed, nil):
            return false
        }
    }

    static func refusal(reason: String, since: ContinuousClock.Instant, now: ContinuousClock.Instant) -> String {
        let elapsed = now - since
        let tenths = elapsed.components.seconds * 10 + elapsed.components.attoseconds / 100_000_000_000_000_000
        return "not tried: the database has been unreachable for \(tenths / 10).\(tenths % 10) s (\(reason)); "
            + "it is probed until it answers"
    }
}
