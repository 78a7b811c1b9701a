import Foundation
import SessionStore

/// The one door to one-time records (sessions, issued nonces, cross-device results): opening, taking, filling a
/// reservation and reading one's state, each with the same answers and metrics for every flow.
struct SessionGate: Sendable {
    /// A session being opened: its id and its times.
    struct Opening {
        let id: String
        let createdAt: Date
        let expiresAt: Date
    }

    /// Opens a session owned by `integrator` that lives `lifetime` seconds from now, under `id` (by default a fresh
    /// one): `records` makes what is stored for it (usually one record; a cross-device request stores its result's
    /// reservation, its session and its request object), each stored in that order within the integrator's share.
    func open(id: String = SessionIdentifier.make(), lifetime: TimeInterval, for integrator: Integrator,
              _ records: (Opening) throws(ServiceProblem) -> [SessionRecord]) async throws(ServiceProblem) -> Opening
    {
        let created = now()
        let opening = Opening(id: id, createdAt: created, expiresAt: created.addingTimeInterval(lifetime))
        for record in try records(opening) {
            try await store(record, for: integrator, now: created)
        }
        return opening
    }

    let store: any SessionStore
    let quota: SessionQuota
    let metrics: ServiceMetrics
    let now: @Sendable () -> Date

    /// Stores a new session owned by `integrator`, within its kind's and the integrator's share of the capacity
    /// (``SessionAdmission``): an integrator over its share is 429 `INTEGRATOR_QUOTA_EXCEEDED`, a kind or a store
    /// that is full is 503 `SESSION_STORE_FULL`, both with `Retry-After`.
    private func store(_ record: SessionRecord, for integrator: Integrator, now: Date) async throws(ServiceProblem) {
        do {
            try await store.insert(record.owned(by: integrator.name), quota: quota, now: now)
        } catch {
            let problem: ServiceProblem
            let event: String
            switch error {
            case .full(let maximum):
                problem = .sessionStoreFull("\(maximum) sessions are open; try again when some have been used or expired")
                event = "store_full"
            case .fullBytes(let maximum):
                problem = .sessionStoreFull("open sessions hold \(maximum) bytes; try again when some have been used or expired")
                event = "store_full"
            case .recordTooLarge(let maximum):
                metrics.session(flow: record.kind.rawValue, event: "too_large")
                throw ServiceProblem.sessionTooLarge("this request would keep \(record.payload.count) bytes; a session keeps at "
                                                     + "most \(maximum): ask for fewer or shorter names")
            case .quotaExceeded(.ownerBytes, let maximum):
                problem = ServiceProblem(.tooManyRequests, "INTEGRATOR_QUOTA_EXCEEDED",
                                         "this integrator's open \(record.kind) sessions hold its share of \(maximum) bytes; use or let some expire")
                event = "quota_exceeded"
            case .quotaExceeded(.kind, let maximum):
                problem = .sessionStoreFull("\(maximum) sessions of this kind (\(record.kind)) are open; "
                                            + "try again when some have been used or expired")
                event = "store_full"
            case .quotaExceeded(.owner, let maximum):
                problem = ServiceProblem(.tooManyRequests, "INTEGRATOR_QUOTA_EXCEEDED",
                                         "this integrator holds its share of \(maximum) open \(record.kind) sessions; use or let some expire")
                event = "quota_exceeded"
            case .unavailable(let reason):
                metrics.session(flow: record.kind.rawValue, event: "store_unavailable")
                throw Self.storeUnavailable(reason)
            }
            metrics.session(flow: record.kind.rawValue, event: event)
            throw problem.with(.retryAfter, "5")
        }
        metrics.session(flow: record.kind.rawValue, event: "created")
    }

    /// Takes a session once and has `judging` decide on its answer: the session is spent whatever the verdict (no
    /// decryption oracle), and put back only when nothing was decided (a problem that ``ServiceProblem/leftAnswerUnjudged``:
    /// the proof pool had no room), so that the same answer can be sent again. 404 `SESSION_NOT_FOUND`, 409
    /// `SESSION_ALREADY_USED`, 410 `SESSION_EXPIRED`. Another integrator's session is 404 and stays usable by its owner.
    func take<Session: StoredSession, Answer>(_ id: String, as type: Session.Type, for integrator: Integrator,
                                              judging: (Session) async throws(ServiceProblem) -> Answer)
        async throws(ServiceProblem) -> Answer
    {
        let refusals = TakeRefusals(
            notFound: ServiceProblem.sessionNotFound(),
            alreadyUsed: ServiceProblem.sessionAlreadyUsed("this session was already used; start a new one"),
            expired: ServiceProblem.sessionExpired("this session expired; start a new one"))
        guard SessionIdentifier.isWellFormed(id) else { throw refusals.notFound }
        let record = try await takeRecord(id, kind: Session.kind, owner: integrator, refusals: refusals)
        guard let session = Session(record: record) else {
            throw ServiceProblem.sessionUnreadable()
        }
        return try await judge(record) { () async throws(ServiceProblem) -> Answer in try await judging(session) }
    }

    /// Runs `judging` on a record just taken, and puts the record back when it throws a problem that left the
    /// answer unjudged (``SessionStore/restore(_:now:)``); every other outcome, thrown or returned, spends it.
    func judge<Answer>(_ record: SessionRecord, _ judging: () async throws(ServiceProblem) -> Answer)
        async throws(ServiceProblem) -> Answer
    {
        do {
            return try await judging()
        } catch {
            if error.leftAnswerUnjudged {
                let restored = await store.restore(record, now: now())
                metrics.session(flow: record.kind.rawValue, event: restored == .restored ? "restored" : "not_restored")
            }
            throw error
        }
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
    func takeRecord(_ id: String, kind: SessionKind, owner: Integrator?, refusals: TakeRefusals) async throws(ServiceProblem)
        -> SessionRecord
    {
        switch await store.take(id: id, kind: kind, owner: owner?.name, now: now()) {
        case .taken(let record):
            metrics.session(flow: kind.rawValue, event: "taken")
            return record
        case .alreadyUsed:
            metrics.session(flow: kind.rawValue, event: "replayed")
            throw refusals.alreadyUsed
        case .expired:
            metrics.session(flow: kind.rawValue, event: "expired")
            throw refusals.expired
        case .notFound:
            throw refusals.notFound
        case .unavailable(let reason):
            metrics.session(flow: kind.rawValue, event: "store_unavailable")
            throw Self.storeUnavailable(reason)
        }
    }

    /// Fills a reservation made when its session was opened (a cross-device result): never refused for room.
    func fill(_ id: String, kind: SessionKind, payload: SecretBytes) async -> SessionFillResult {
        let result = await store.fill(id: id, kind: kind, payload: payload, now: now())
        switch result {
        case .filled: metrics.session(flow: kind.rawValue, event: "created")
        case .unavailable: metrics.session(flow: kind.rawValue, event: "store_unavailable")
        case .alreadyFilled, .expired, .notFound: metrics.session(flow: kind.rawValue, event: "expired")
        }
        return result
    }

    /// Takes a filled reservation once (``SessionStore/takeFilled(id:kind:owner:now:)``), counting a take.
    func takeFilled(_ id: String, kind: SessionKind, owner: Integrator) async -> SessionFilledTakeResult {
        let result = await store.takeFilled(id: id, kind: kind, owner: owner.name, now: now())
        switch result {
        case .taken: metrics.session(flow: kind.rawValue, event: "taken")
        case .alreadyUsed: metrics.session(flow: kind.rawValue, event: "replayed")
        case .unavailable: metrics.session(flow: kind.rawValue, event: "store_unavailable")
        case .pending, .expired, .notFound: break
        }
        return result
    }

    /// Reads a live record without taking it, at most `maximumReads` times (``SessionStore/read(id:kind:maximumReads:now:)``):
    /// 404 `SESSION_NOT_FOUND`, 409 `SESSION_ALREADY_USED`, 410 `SESSION_EXPIRED`, 429 `READ_LIMIT_REACHED` past the
    /// maximum, 503 `STORE_UNAVAILABLE`.
    func read(_ id: String, kind: SessionKind, maximumReads: Int, refusals: TakeRefusals) async throws(ServiceProblem) -> SessionRecord {
        switch await store.read(id: id, kind: kind, maximumReads: maximumReads, now: now()) {
        case .read(let record, _):
            metrics.session(flow: kind.rawValue, event: "read")
            return record
        case .exhausted:
            metrics.session(flow: kind.rawValue, event: "read_limit")
            throw ServiceProblem(.tooManyRequests, "READ_LIMIT_REACHED", "this was fetched \(maximumReads) times, the most it is served")
        case .alreadyUsed:
            throw refusals.alreadyUsed
        case .expired:
            throw refusals.expired
        case .notFound:
            throw refusals.notFound
        case .unavailable(let reason):
            metrics.session(flow: kind.rawValue, event: "store_unavailable")
            throw Self.storeUnavailable(reason)
        }
    }

    /// Takes a record that is no longer needed (whether it was still there or not), freeing its room.
    func discard(_ id: String, kind: SessionKind) async {
        if case .taken = await store.take(id: id, kind: kind, owner: nil, now: now()) {
            metrics.session(flow: kind.rawValue, event: "retired")
        }
    }

    /// Whether a session is still open, without taking it.
    func presence(_ id: String, kind: SessionKind, owner: Integrator?) async -> SessionPresence {
        await store.presence(id: id, kind: kind, owner: owner?.name, now: now())
    }

    /// 503 `STORE_UNAVAILABLE` with `Retry-After`: the shared store (the database) cannot be reached now.
    static func storeUnavailable(_ reason: String) -> ServiceProblem {
        ServiceProblem(.serviceUnavailable, "STORE_UNAVAILABLE", reason).with(.retryAfter, "2")
    }
}
