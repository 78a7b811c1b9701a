import Crypto
import Encodings
import Foundation
import HTTPServer
import HTTPTypes
import MDoc
import OpenID4VP
import ReaderAuthentication
import ReportEncoding
import SessionStore
import StrictJSON
import TrustStore
import ZKMdoc

/// OpenID4VP 1.0 for mdocs: `POST /v1/oid4vp/requests` and `/v1/oid4vp/verify` (Digital Credentials API, both
/// response modes, signed and unsigned), and the cross-device flow: the request object served once, the wallet's
/// post to the response URI, the result fetched once by the caller.
struct OpenID4VPHandler: Sendable {

    let oid4vp: ServiceConfiguration.OpenID4VP?
    let signer: RequestObjectSigner?
    let sessions: SessionGate
    let verification: ResponseVerification
    let clock: RequestClock
    /// Long polls on the result route, woken by this process's wallet posts.
    let waiters: ResultWaiters
    /// Whether the store is shared with other replicas (a waiting poll then re-reads it).
    let sharedStore: Bool
    /// Results pushed to the integrators that configured an endpoint.
    let webhooks: IntegratorWebhooks?

    func createRequest(_ request: HTTPServerRequest, for integrator: Integrator) async throws(ServiceProblem) -> HTTPServerResponse {
        let oid4vp = try configured(oid4vp, "oid4vp")
        let body = try RequestDecoding.decode(OpenID4VPRequestBody.self, from: request)
        let requested = try Self.query(documents: body.documents, dcql: body.dcql_query, zeroKnowledge: verification.zeroKnowledge)

        if requested.asksForSDJWTVC && verification.sdJwtVcIssuers == nil {
            throw ServiceProblem.invalidRequest("dcql_query asks for a dc+sd-jwt credential but SD-JWT VC verification is not configured (sdJwtVc)")
        }
        switch body.flow ?? "dc_api" {
        case "dc_api":
            return try await createDigitalCredentialsRequest(body, requested: requested, oid4vp: oid4vp, for: integrator)
        case "cross-device":
            return try await createCrossDeviceRequest(body, requested: requested, oid4vp: oid4vp, for: integrator)
        default:
            throw ServiceProblem.invalidRequest("\"flow\" is \"dc_api\" or \"cross-device\"")
        }
    }

    /// The DCQL query: the caller's own (`dcql_query`, checked), or one made from `documents` (or the default).
    static func query(documents: [RequestedDocument]?, dcql: RawJSON?, zeroKnowledge: ZkDocumentVerifier?) throws(ServiceProblem) -> DCQLQuery {
        guard let raw = dcql else { return DCQLQuery(try RequestedDocument.items(documents, zeroKnowledge: zeroKnowledge)) }
        guard documents == nil else { throw ServiceProblem.invalidRequest("give \"documents\" or \"dcql_query\", not both") }
        let query: DCQLQuery
        do {
            query = try DCQLQuery(parsing: raw, maximumCredentials: RequestLimits.maximumDocuments,
                                  maximumClaims: RequestLimits.maximumElementsPerDocument)
        } catch {
            throw ServiceProblem.invalidRequest(error.detail)
        }
        if !query.requested.documents.isEmpty, let problem = RequestLimits.problem(with: query.requested) {
            throw ServiceProblem.invalidRequest(problem)
        }
        if let refused = query.zeroKnowledgeSystemNotAccepted(by: zeroKnowledge) {
            throw ServiceProblem(.badRequest, "ZK_NOT_AVAILABLE", "dcql_query credential \"\(refused.credentialId)\" names "
                                 + "zero-knowledge system \(refused.systemId.prefix(64)), which this service does not accept (zk.systems)")
        }
        return query
    }

    private func createDigitalCredentialsRequest(_ body: OpenID4VPRequestBody, requested: DCQLQuery,
                                                 oid4vp: ServiceConfiguration.OpenID4VP, for integrator: Integrator)
        async throws(ServiceProblem) -> HTTPServerResponse
    {
        guard body.redirectUri == nil else { throw ServiceProblem.invalidRequest("\"redirectUri\" is for cross-device requests") }
        guard let origin = body.origin, oid4vp.allowedOrigins.contains(origin) else {
            throw ServiceProblem(.badRequest, "ORIGIN_NOT_ALLOWED", "\"origin\" is not one of oid4vp.allowedOrigins (compared exactly)")
        }
        guard let mode = ResponseMode(rawValue: body.responseMode ?? ResponseMode.dcAPIJWT.rawValue), mode != .directPostJWT else {
            throw ServiceProblem.invalidRequest("\"responseMode\" is \"dc_api.jwt\" or \"dc_api\"")
        }
        if mode == .dcAPI && !oid4vp.allowUnencryptedResponses {
            throw ServiceProblem(.badRequest, "RESPONSE_MODE_NOT_ALLOWED",
                                 "dc_api (answers in the clear) needs oid4vp.allowUnencryptedResponses; HAIP allows only dc_api.jwt")
        }
        var signer: RequestObjectSigner?
        if body.signed ?? true {
            signer = try configured(self.signer, "readerAuth")
        }
        let made: OpenID4VPRequest
        do {
            made = try OpenID4VPRequest(origin: origin, query: requested, mode: mode, signer: signer)
        } catch {
            throw ServiceProblem(.internalServerError, "READER_AUTH_FAILED", "the request object could not be signed")
        }
        let opened = try await sessions.open(lifetime: TimeInterval(oid4vp.sessionTTLSeconds), for: integrator) { opening in
            [made.session.record(id: opening.id, createdAt: opening.createdAt, expiresAt: opening.expiresAt)]
        }
        return .json(.object([
            ("sessionId", .string(opened.id)),
            ("expiresAt", .string(ReportJSON.timestamp(opened.expiresAt))),
            ("request", made.digitalCredentialsRequest),
        ]), status: .created)
    }

    private func createCrossDeviceRequest(_ body: OpenID4VPRequestBody, requested: DCQLQuery,
                                          oid4vp: ServiceConfiguration.OpenID4VP, for integrator: Integrator)
        async throws(ServiceProblem) -> HTTPServerResponse
    {
        guard let base = oid4vp.publicBaseURL else {
            throw ServiceProblem(.serviceUnavailable, "OID4VP_PUBLIC_BASE_URL_NOT_CONFIGURED",
                                 "cross-device requests need oid4vp.publicBaseUrl (where wallets reach this service)")
        }
        guard body.responseMode == nil || body.responseMode == ResponseMode.directPostJWT.rawValue, body.signed ?? true else {
            throw ServiceProblem.invalidRequest("a cross-device request is signed and direct_post.jwt")
        }
        // The page that shows the QR code may name its origin; the transcript binds the client_id and response URI.
        if let origin = body.origin, !oid4vp.allowedOrigins.contains(origin) {
            throw ServiceProblem(.badRequest, "ORIGIN_NOT_ALLOWED", "\"origin\" is not one of oid4vp.allowedOrigins (compared exactly)")
        }
        var redirectURI: RedirectURI?
        if let redirect = body.redirectUri {
            switch RedirectURI.parse(redirect, allowedOrigins: oid4vp.allowedOrigins) {
            case .success(let parsed): redirectURI = parsed
            case .failure(let problem): throw ServiceProblem.invalidRequest("\"redirectUri\" \(problem.rawValue)")
            }
        }
        let signer = try configured(self.signer, "readerAuth")
        var authorizationRequest = ""
        let opened = try await sessions.open(lifetime: TimeInterval(oid4vp.sessionTTLSeconds), for: integrator) { opening throws(ServiceProblem) in
            let made: CrossDeviceRequest
            do {
                made = try CrossDeviceRequest(sessionId: opening.id, query: requested, signer: signer, redirectURI: redirectURI,
                                              responseURI: { "\(base)/v1/oid4vp/responses/\($0)" },
                                              requestObjectURI: { "\(base)/v1/oid4vp/request-objects/\($0)" })
            } catch {
                throw ServiceProblem(.internalServerError, "READER_AUTH_FAILED", "the request object could not be signed")
            }
            authorizationRequest = made.authorizationRequest
            return made.records(createdAt: opening.createdAt, expiresAt: opening.expiresAt)
        }
        return .json(.object([
            ("sessionId", .string(opened.id)),
            ("expiresAt", .string(ReportJSON.timestamp(opened.expiresAt))),
            ("authorizationRequest", .string(authorizationRequest)),
        ]), status: .created)
    }

    func verify(_ request: HTTPServerRequest, for integrator: Integrator) async throws(ServiceProblem) -> HTTPServerResponse {
        _ = try configured(oid4vp, "oid4vp")
        let body = try RequestDecoding.decode(OpenID4VPVerifyBody.self, from: request)
        let time = try clock.verificationTime(body.verificationTime)
        return try await sessions.take(body.sessionId, as: OpenID4VPSession.self, for: integrator) { session throws(ServiceProblem) in
            let verdict: OpenID4VPVerdict
            do throws(ResponseFailure) {
                verdict = await verification.openID4VPVerifier(at: time, for: integrator.name).verify(try WalletAnswer(body.response),
                                                                                                 session: session)
            } catch {
                verdict = OpenID4VPVerdict(report: .failure(error.code, error.detail), credentialIds: [])
            }
            return try .verdict(verdict)
        }
    }


    /// `GET /v1/oid4vp/request-objects/{id}`: the signed request object, once (a wallet's call, no integrator token).
    func requestObject(_ request: HTTPServerRequest, _: Void) async throws(ServiceProblem) -> HTTPServerResponse {
        _ = try configured(oid4vp, "oid4vp")
        let id = request.pathParameters["id"] ?? ""
        let refusals = SessionGate.TakeRefusals(
            notFound: ServiceProblem.sessionNotFound("no such request object"),
            alreadyUsed: ServiceProblem.sessionAlreadyUsed("this request object was already fetched"),
            expired: ServiceProblem.sessionExpired("this request expired"))
        guard SessionIdentifier.isWellFormed(id) else { throw refusals.notFound }
        let record = try await sessions.takeRecord(id, kind: .oid4vpRequestObject, owner: nil, refusals: refusals)
        var fields = HTTPFields()
        fields[.contentType] = "application/oauth-authz-req+jwt"
        fields[.cacheControl] = "no-store"
        return HTTPServerResponse(status: .ok, headerFields: fields, body: record.payload.bytes)
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
        let outcome = verdict.verified ? "verified" : (verdict.failureCode?.rawValue ?? "NOT_VERIFIED")
        // With a redirect URI, a fresh response code goes to the wallet's user agent (OpenID4VP 1.0 14.2, HAIP 5.1): the
        // result is released only to a caller that presents it, so an answer given in another browser is refused.
        let responseCode = session.redirectURI == nil ? nil : SessionIdentifier.make()
        let result = CrossDeviceResult(verified: verdict.verified, responseCode: responseCode,
                                       report: VerdictJSON.bytes(verdict, includeClaims: true))
        // Pushed first, durably, before the wallet is answered: a delivery survives this process (at least once).
        if let webhooks, webhooks.delivers(to: owner), let sessionId = session.callerSessionId {
            await webhooks.enqueue(sessionId: sessionId, integrator: owner, verified: verdict.verified,
                                   report: result.report, responseCode: responseCode)
        }
        // Into the room reserved with the session: no quota or maximum can refuse it, and the wallet never sees one.
        // Refused only when the reservation outlived its expiry (the answer took longer than the margin): the poll
        // then ends 410.
        if case .unavailable(let reason) = await sessions.fill(CrossDeviceIdentifiers.resultId(responseId: id), kind: .oid4vpResult,
                                                               payload: SecretBytes(result.encoded)) {
            throw SessionGate.storeUnavailable(reason)
        }
        waiters.filled(CrossDeviceIdentifiers.resultId(responseId: id))
        // `redirect_uri` (8.2): where the wallet sends the user next, when the caller gave one.
        var response = HTTPServerResponse.json(JSON.object([
            ("redirect_uri", session.redirectURI.map { JSON.string("\($0)#response_code=\(responseCode ?? "")") }),
        ]))
        response.head.headerFields[.cacheControl] = "no-store"
        response.logAnnotations = ["outcome": outcome]
        return response
    }

    /// `GET /v1/oid4vp/sessions/{id}/result[?wait=N]`: 202 while the wallet has not answered, then the report once,
    /// then 409. With `wait` (seconds, at most ``ResultWaiters/maximumWaitSeconds``) a pending poll is held until the
    /// wallet's answer is stored (answered at once when it reaches this process; a replica on a shared store also
    /// re-reads it every ``ResultWaiters/sharedStoreInterval``) or the wait ends, then answers as without it.
    func result(_ request: HTTPServerRequest, for integrator: Integrator) async throws(ServiceProblem) -> HTTPServerResponse {
        _ = try configured(oid4vp, "oid4vp")
        let id = request.pathParameters["id"] ?? ""
        var wait = 0
        if let text = request.query("wait") {
            guard let seconds = Int(text), (0...ResultWaiters.maximumWaitSeconds).contains(seconds), text.utf8.count <= 2 else {
                throw ServiceProblem.invalidRequest("wait is a whole number of seconds from 0 to \(ResultWaiters.maximumWaitSeconds)")
            }
            wait = seconds
        }
        guard SessionIdentifier.isWellFormed(id) else { throw ServiceProblem.sessionNotFound() }
        let resultId = CrossDeviceIdentifiers.resultId(responseId: CrossDeviceIdentifiers.responseId(sessionId: id))
        let deadline = ContinuousClock.now + .seconds(wait)
        while true {
            if let answer = try await resultOnce(request, sessionId: id, for: integrator) { return answer }
            let left = deadline - ContinuousClock.now
            guard left > .zero else { break }
            let slice = sharedStore ? min(left, ResultWaiters.sharedStoreInterval) : left
            guard await waiters.wait(for: resultId, timeout: slice) else { break }
        }
        var response = HTTPServerResponse.json(JSON.object([("status", .string("pending"))]), status: .accepted)
        response.head.headerFields[.retryAfter] = "1"
        return response
    }

    /// One read of the result: the answer to give, or nil while it is pending.
    private func resultOnce(_ request: HTTPServerRequest, sessionId id: String, for integrator: Integrator)
        async throws(ServiceProblem) -> HTTPServerResponse?
    {
        let notFound = ServiceProblem.sessionNotFound()
        let responseId = CrossDeviceIdentifiers.responseId(sessionId: id)
        switch await sessions.takeFilled(CrossDeviceIdentifiers.resultId(responseId: responseId), kind: .oid4vpResult, owner: integrator) {
        case .taken(let record):
            guard let result = CrossDeviceResult(encoded: record.payload.bytes) else {
                throw ServiceProblem.sessionUnreadable("the stored result could not be read")
            }
            // The result is taken either way: a presentation whose response code does not come back is discarded.
            guard result.isReleased(to: request.query("response_code")) else {
                throw ServiceProblem(.forbidden, "RESPONSE_CODE_MISMATCH",
                                     "response_code is not the one the wallet's redirect carried; the presentation is discarded")
            }
            var response = HTTPServerResponse.json(result.report, status: result.verified ? .ok : .unprocessableContent)
            response.logAnnotations = ["outcome": result.verified ? "verified" : "NOT_VERIFIED"]
            return response
        case .alreadyUsed:
            throw ServiceProblem.sessionAlreadyUsed("this result was already fetched")
        case .unavailable(let reason):
            throw SessionGate.storeUnavailable(reason)
        case .expired:
            throw ServiceProblem.sessionExpired("the result was not fetched in time, or no answer was stored in time")
        case .notFound:
            throw notFound
        case .pending:
            break
        }
        // The reservation is still empty: waiting for the wallet, or its answer is being verified; a session that
        // expired unanswered ends the poll.
        switch await sessions.presence(responseId, kind: .oid4vpCrossDevice, owner: integrator) {
        case .open, .alreadyUsed:
            return nil
        case .expired, .notFound:
            throw ServiceProblem.sessionExpired("this session expired before the wallet answered")
        case .unavailable(let reason):
            throw SessionGate.storeUnavailable(reason)
        }
    }
}


