import Foundation
import HTTPServer
import HTTPTypes
import MDoc
import OpenID4VP
import ReportEncoding
import SessionStore

/// The routes a wallet calls itself in the cross-device flow (open: a wallet holds no token of ours): the request
/// object, fetched by GET or POST as often as ``CrossDeviceRequestObject/maximumFetches`` allows while its session
/// waits (OpenID4VP 1.0 §5.10), and the response URI that takes the wallet's one answer.
struct CrossDeviceWalletHandler: Sendable {
    let oid4vp: ServiceConfiguration.OpenID4VP?
    let signer: RequestObjectSigner?
    let sessions: SessionGate
    let verification: ResponseVerification
    let clock: RequestClock
    /// Long polls on the result route, woken by this process's wallet posts.
    let waiters: ResultWaiters
    /// Results pushed to the integrators that configured an endpoint.
    let webhooks: IntegratorWebhooks?

    /// `GET` and `POST /v1/oid4vp/request-objects/{id}`: the signed request object (`application/oauth-authz-req+jwt`);
    /// a POST's `wallet_nonce` is in it and its `wallet_metadata` taken into account, or 400 with an OAuth error.
    func requestObject(_ request: HTTPServerRequest, _: Void) async throws(ServiceProblem) -> HTTPServerResponse {
        _ = try configured(oid4vp, "oid4vp")
        let signer = try configured(signer, "readerAuth")
        let fetch: RequestObjectFetch
        do throws(RequestObjectRefusal) {
            if request.head.method == .post {
                guard let fields = FormURLEncoded.fields(request.body, maximumFields: 16) else {
                    throw RequestObjectRefusal(.invalidRequest, "the body is not application/x-www-form-urlencoded with each field once")
                }
                fetch = try RequestObjectFetch.post(fields: fields)
            } else {
                fetch = .get
            }
        } catch {
            return Self.oauthError(error)
        }
        let id = request.pathParameters["id"] ?? ""
        let refusals = SessionGate.TakeRefusals(
            notFound: ServiceProblem.sessionNotFound("no such request object"),
            alreadyUsed: ServiceProblem.sessionAlreadyUsed("this request was answered"),
            expired: ServiceProblem.sessionExpired("this request expired"))
        guard SessionIdentifier.isWellFormed(id) else { throw refusals.notFound }
        let record = try await sessions.read(id, kind: .oid4vpRequestObject, maximumReads: CrossDeviceRequestObject.maximumFetches,
                                             refusals: refusals)
        guard let requestObject = CrossDeviceRequestObject(record: record) else { throw ServiceProblem.sessionUnreadable() }
        // Served only while its session waits for the answer.
        switch await sessions.presence(requestObject.responseId, kind: .oid4vpCrossDevice, owner: nil) {
        case .open: break
        case .alreadyUsed: throw refusals.alreadyUsed
        case .expired, .notFound: throw refusals.expired
        case .unavailable(let reason): throw SessionGate.storeUnavailable(reason)
        }
        let served: String
        do throws(RequestObjectRefusal) {
            served = try requestObject.respond(to: fetch, signer: signer)
        } catch {
            return Self.oauthError(error)
        }
        var fields = HTTPFields()
        fields[.contentType] = "application/oauth-authz-req+jwt"
        fields[.cacheControl] = "no-store"
        return HTTPServerResponse(status: .ok, headerFields: fields, body: Array(served.utf8))
    }

    /// 400 with `{"error", "error_description"}` (RFC 6749 §5.2): a wallet ends the flow on it (OpenID4VP 1.0 §5.10.2).
    static func oauthError(_ refusal: RequestObjectRefusal) -> HTTPServerResponse {
        var response = HTTPServerResponse.json(refusal.body, status: .badRequest)
        response.head.headerFields[.cacheControl] = "no-store"
        response.logAnnotations = ["code": refusal.code.rawValue]
        return response
    }

    /// `POST /v1/oid4vp/responses/{id}`: the wallet's `response=<JWE>` (or `error=`), once. The wallet learns only that
    /// the answer was received (200 `{}`), never whether it verified: the caller reads that from the result route.
    func walletResponse(_ request: HTTPServerRequest, _: Void) async throws(ServiceProblem) -> HTTPServerResponse {
        _ = try configured(oid4vp, "oid4vp")
        let id = request.pathParameters["id"] ?? ""
        guard let fields = FormURLEncoded.fields(request.body, maximumFields: 16) else {
            throw ServiceProblem.invalidRequest("the body is not application/x-www-form-urlencoded with each field once")
        }
        let answer: WalletAnswer
        do throws(ResponseFailure) {
            answer = try WalletAnswer(directPostFields: fields)
        } catch {
            throw ServiceProblem.invalidRequest(error.detail)
        }
        let refusals = SessionGate.TakeRefusals(
            notFound: ServiceProblem.sessionNotFound(),
            alreadyUsed: ServiceProblem.sessionAlreadyUsed("this session already has its answer"),
            expired: ServiceProblem.sessionExpired("this session expired"))
        guard SessionIdentifier.isWellFormed(id) else { throw refusals.notFound }
        let record = try await sessions.takeRecord(id, kind: .oid4vpCrossDevice, owner: nil, refusals: refusals)
        guard let session = OpenID4VPSession(record: record) else {
            throw ServiceProblem.sessionUnreadable()
        }
        // An answer the proof pool had no room for is not a result: the session is put back and the wallet told to
        // send it again (503 with Retry-After), before anything is pushed or stored.
        return try await sessions.judge(record) { () async throws(ServiceProblem) -> HTTPServerResponse in
            try await storeResult(answer, session: session, responseId: id, owner: record.owner)
        }
    }

    /// Judges a wallet's answer and stores (and pushes) the result for the caller.
    private func storeResult(_ answer: WalletAnswer, session: OpenID4VPSession, responseId id: String, owner: String)
        async throws(ServiceProblem) -> HTTPServerResponse
    {
        let verdict = await verification.openID4VPVerifier(at: clock.now(), for: owner).verify(answer, session: session)
        if let unjudged = ServiceProblem.unjudged(verdict.report) { throw unjudged }
        let judged = CrossDeviceAnswer(verdict: verdict, session: session, report: VerdictJSON.bytes(verdict, includeClaims: true))
        // Pushed first, durably, before the wallet is answered: a delivery survives this process (at least once).
        if let webhooks, webhooks.delivers(to: owner), let sessionId = session.callerSessionId {
            await webhooks.enqueue(sessionId: sessionId, integrator: owner, verified: verdict.verified,
                                   report: judged.result.report, responseCode: judged.result.responseCode)
        }
        // Into the room reserved with the session: no quota or maximum can refuse it, and the wallet never sees one.
        // Refused only when the reservation outlived its expiry (the answer took longer than the margin): the poll
        // then ends 410.
        let resultId = CrossDeviceIdentifiers.resultId(responseId: id)
        if case .unavailable(let reason) = await sessions.fill(resultId, kind: .oid4vpResult, payload: SecretBytes(judged.result.encoded)) {
            throw SessionGate.storeUnavailable(reason)
        }
        waiters.filled(resultId)
        // Answered: the request object is served no more, and the room it held is free.
        await sessions.discard(CrossDeviceIdentifiers.requestObjectId(responseId: id), kind: .oid4vpRequestObject)
        var response = HTTPServerResponse.json(judged.walletReply)
        response.head.headerFields[.cacheControl] = "no-store"
        response.logAnnotations = ["outcome": verdict.verified ? "verified" : (verdict.failureCode?.rawValue ?? "NOT_VERIFIED")]
        return response
    }
}
