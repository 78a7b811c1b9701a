import Foundation
import SessionStore

/// Storing and taking one-time sessions, with the same answers for every flow.
extension VerifierService {
    /// Stores a new session; a full store is 503 `SESSION_STORE_FULL` with `Retry-After`.
    func storeSession(_ record: SessionRecord, now: Date) async throws(ServiceProblem) {
        do {
            try await sessionStore.insert(record, now: now)
        } catch {
            var problem: ServiceProblem
            var event = "store_full"
            switch error {
            case .full(let maximum):
                problem = ServiceProblem(.serviceUnavailable, "SESSION_STORE_FULL",
                                         "\(maximum) sessions are open; try again when some have been used or expired")
                problem.headers[.retryAfter] = "5"
            case .unavailable(let reason):
                problem = Self.storeUnavailable(reason)
                event = "store_unavailable"
            }
            metrics.session(flow: record.kind, event: event)
            throw problem
        }
    }

    /// Takes a session once, whatever happens next (no decryption oracle): 404 `SESSION_NOT_FOUND`, 409
    /// `SESSION_ALREADY_USED`, 410 `SESSION_EXPIRED`.
    func takeSession<Session: StoredSession>(_ id: String, as type: Session.Type) async throws(ServiceProblem) -> Session {
        let flow = Session.kind
        guard SessionIdentifier.isWellFormed(id) else {
            throw ServiceProblem(.notFound, "SESSION_NOT_FOUND", "no such session")
        }
        switch await sessionStore.take(id: id, kind: Session.kind, now: now()) {
        case .taken(let record):
            metrics.session(flow: flow, event: "taken")
            guard let session = Session(record: record) else {
                throw ServiceProblem(.internalServerError, "SESSION_UNREADABLE", "the stored session could not be read")
            }
            return session
        case .alreadyUsed:
            metrics.session(flow: flow, event: "replayed")
            throw ServiceProblem(.conflict, "SESSION_ALREADY_USED", "this session was already used; start a new one")
        case .expired:
            metrics.session(flow: flow, event: "expired")
            throw ServiceProblem(.gone, "SESSION_EXPIRED", "this session expired; start a new one")
        case .notFound:
            throw ServiceProblem(.notFound, "SESSION_NOT_FOUND", "no such session")
        case .unavailable(let reason):
            metrics.session(flow: flow, event: "store_unavailable")
            throw Self.storeUnavailable(reason)
        }
    }

    /// 503 `STORE_UNAVAILABLE` with `Retry-After`: the shared store (the database) cannot be reached now.
    static func storeUnavailable(_ reason: String) -> ServiceProblem {
        var problem = ServiceProblem(.serviceUnavailable, "STORE_UNAVAILABLE", reason)
        problem.headers[.retryAfter] = "2"
        return problem
    }
}
