import Foundation
import SessionStore

/// Storing and taking one-time records (sessions, issued nonces), with the same answers for every flow.
struct SessionDesk: Sendable {
    let store: any SessionStore
    let quota: SessionQuota
    let metrics: ServiceMetrics
    let now: @Sendable () -> Date

    /// Stores a new session owned by `integrator`, within its kind's and the integrator's share of the capacity
    /// (``SessionAdmission``): an integrator over its share is 429 `INTEGRATOR_QUOTA_EXCEEDED`, a kind or a store
    /// that is full is 503 `SESSION_STORE_FULL`, both with `Retry-After`.
    func store(_ record: SessionRecord, for integrator: Integrator, now: Date) async throws(ServiceProblem) {
        do {
            try await store.insert(record.owned(by: integrator.name), quota: quota, now: now)
        } catch {
            let problem: ServiceProblem
            let event: String
            switch error {
            case .full(let maximum):
                problem = ServiceProblem(.serviceUnavailable, "SESSION_STORE_FULL",
                                         "\(maximum) sessions are open; try again when some have been used or expired")
                event = "store_full"
            case .fullBytes(let maximum):
                problem = ServiceProblem(.serviceUnavailable, "SESSION_STORE_FULL",
                                         "open sessions hold \(maximum) bytes; try again when some have been used or expired")
                event = "store_full"
            case .recordTooLarge(let maximum):
                metrics.session(flow: record.kind, event: "too_large")
                throw ServiceProblem(.badRequest, "SESSION_TOO_LARGE",
                                     "this request would keep \(record.payload.count) bytes; a session keeps at most \(maximum): ask for fewer or shorter names")
            case .quotaExceeded(.ownerBytes, let maximum):
                problem = ServiceProblem(.tooManyRequests, "INTEGRATOR_QUOTA_EXCEEDED",
                                         "this integrator's open \(record.kind) sessions hold its share of \(maximum) bytes; use or let some expire")
                event = "quota_exceeded"
            case .quotaExceeded(.kind, let maximum):
                problem = ServiceProblem(.serviceUnavailable, "SESSION_STORE_FULL",
                                         "\(maximum) sessions of this kind (\(record.kind)) are open; try again when some have been used or expired")
                event = "store_full"
            case .quotaExceeded(.owner, let maximum):
                problem = ServiceProblem(.tooManyRequests, "INTEGRATOR_QUOTA_EXCEEDED",
                                         "this integrator holds its share of \(maximum) open \(record.kind) sessions; use or let some expire")
                event = "quota_exceeded"
            case .unavailable(let reason):
                metrics.session(flow: record.kind, event: "store_unavailable")
                throw Self.storeUnavailable(reason)
            }
            metrics.session(flow: record.kind, event: event)
            throw problem.with(.retryAfter, "5")
        }
        metrics.session(flow: record.kind, event: "created")
    }

    /// Takes a session once, whatever happens next (no decryption oracle): 404 `SESSION_NOT_FOUND`, 409
    /// `SESSION_ALREADY_USED`, 410 `SESSION_EXPIRED`. Another integrator's session is 404 and stays usable by its owner.
    func take<Session: StoredSession>(_ id: String, as type: Session.Type, for integrator: Integrator)
        async throws(ServiceProblem) -> Session
    {
        let refusals = TakeRefusals(
            notFound: ServiceProblem(.notFound, "SESSION_NOT_FOUND", "no such session"),
            alreadyUsed: ServiceProblem(.conflict, "SESSION_ALREADY_USED", "this session was already used; start a new one"),
            expired: ServiceProblem(.gone, "SESSION_EXPIRED", "this session expired; start a new one"))
        guard SessionIdentifier.isWellFormed(id) else { throw refusals.notFound }
        let record = try await takeRecord(id, kind: Session.kind, owner: integrator, refusals: refusals)
        guard let session = Session(record: record) else {
            throw ServiceProblem(.internalServerError, "SESSION_UNREADABLE", "the stored session could not be read")
        }
        return session
    }

    /// What a flow answers when its one-time record cannot be taken.
    struct TakeRefusals {
        let notFound: ServiceProblem
        let alreadyUsed: ServiceProblem
        let expired: ServiceProblem
    }

    /// Takes a one-time record (a session, an issued nonce) once, counting the outcome under its kind; a store that
    /// cannot be asked is 503 `STORE_UNAVAILABLE`.
    /// With `owner` nil, whoever owns it (a wallet's call names no integrator).
    func takeRecord(_ id: String, kind: String, owner: Integrator?, refusals: TakeRefusals) async throws(ServiceProblem)
        -> SessionRecord
    {
        switch await store.take(id: id, kind: kind, owner: owner?.name, now: now()) {
        case .taken(let record):
            metrics.session(flow: kind, event: "taken")
            return record
        case .alreadyUsed:
            metrics.session(flow: kind, event: "replayed")
            throw refusals.alreadyUsed
        case .expired:
            metrics.session(flow: kind, event: "expired")
            throw refusals.expired
        case .notFound:
            throw refusals.notFound
        case .unavailable(let reason):
            metrics.session(flow: kind, event: "store_unavailable")
            throw Self.storeUnavailable(reason)
        }
    }

    /// 503 `STORE_UNAVAILABLE` with `Retry-After`: the shared store (the database) cannot be reached now.
    static func storeUnavailable(_ reason: String) -> ServiceProblem {
        ServiceProblem(.serviceUnavailable, "STORE_UNAVAILABLE", reason).with(.retryAfter, "2")
    }
}
