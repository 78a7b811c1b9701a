import Crypto
import Encodings
import Foundation
import HTTPServer
import HTTPTypes
import MDoc
import OpenID4VP
import ReaderAuthentication
import SessionStore
import StrictJSON
import TrustStore

/// OpenID4VP 1.0 for mdocs: `POST /v1/oid4vp/requests` and `/v1/oid4vp/verify` (Digital Credentials API, both
/// response modes, signed and unsigned), and the cross-device flow: the request object served once, the wallet's
/// post to the response URI, the result fetched once by the caller.
struct OpenID4VPHandler: Sendable {
    /// Session-store kinds of the cross-device flow's request objects and results.
    static let requestObjectKind = "oid4vp-request-object"
    static let resultKind = "oid4vp-result"

    let oid4vp: ServiceConfiguration.OpenID4VP?
    let signer: RequestObjectSigner?
    let sessions: SessionDesk
    let verification: ResponseVerification
    let clock: RequestClock

    func createRequest(_ request: HTTPServerRequest, for integrator: Integrator) async throws(ServiceProblem) -> HTTPServerResponse {
        let oid4vp = try configured(oid4vp, "oid4vp")
        let body = try RequestDecoding.decode(OpenID4VPRequestBody.self, from: request)
        let requested = try Self.query(body)
        let created = clock.now()
        let expiresAt = created.addingTimeInterval(TimeInterval(oid4vp.sessionTTLSeconds))
        let id = SessionIdentifier.make()
        switch body.flow ?? "dc_api" {
        case "dc_api":
            return try await createDigitalCredentialsRequest(body, requested: requested, oid4vp: oid4vp, id: id, created: created,
                                                             expiresAt: expiresAt, for: integrator)
        case "cross-device":
            return try await createCrossDeviceRequest(body, requested: requested, oid4vp: oid4vp, id: id, created: created,
                                                      expiresAt: expiresAt, for: integrator)
        default:
            throw ServiceProblem.invalidRequest("\"flow\" is \"dc_api\" or \"cross-device\"")
        }
    }

    /// The DCQL query: the caller's own (`dcql_query`, checked), or one made from `documents` (or the default).
    static func query(_ body: OpenID4VPRequestBody) throws(ServiceProblem) -> DCQLQuery {
        guard let raw = body.dcql_query else { return DCQLQuery(try RequestedDocument.items(body.documents)) }
        guard body.documents == nil else { throw ServiceProblem.invalidRequest("give \"documents\" or \"dcql_query\", not both") }
        let query: DCQLQuery
        do {
            query = try DCQLQuery(parsing: raw, maximumCredentials: RequestLimits.maximumDocuments,
                                  maximumClaims: RequestLimits.maximumElementsPerDocument)
        } catch {
            throw ServiceProblem.invalidRequest(error.detail)
        }
        if let problem = RequestLimits.problem(with: query.requested) { throw ServiceProblem.invalidRequest(problem) }
        return query
    }

    private func createDigitalCredentialsRequest(_ body: OpenID4VPRequestBody, requested: DCQLQuery,
                                                 oid4vp: ServiceConfiguration.OpenID4VP, id: String, created: Date,
                                                 expiresAt: Date, for integrator: Integrator) async throws(ServiceProblem)
        -> HTTPServerResponse
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
        try await sessions.store(made.session.record(id: id, createdAt: created, expiresAt: expiresAt), for: integrator, now: created)
        return .json(.object([
            ("sessionId", .string(id)),
            ("expiresAt", .string(ReportJSON.timestamp(expiresAt))),
            ("request", made.digitalCredentialsRequest),
        ]), status: .created)
    }

    private func createCrossDeviceRequest(_ body: OpenID4VPRequestBody, requested: DCQLQuery,
                                          oid4vp: ServiceConfiguration.OpenID4VP, id: String, created: Date,
                                          expiresAt: Date, for integrator: Integrator) async throws(ServiceProblem)
        -> HTTPServerResponse
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
        if let redirect = body.redirectUri, case .failure(let problem) = RedirectURI.parse(redirect, allowedOrigins: oid4vp.allowedOrigins) {
            throw ServiceProblem.invalidRequest("\"redirectUri\" \(problem.rawValue)")
        }
        let signer = try configured(self.signer, "readerAuth")
        let made: OpenID4VPRequest
        do {
            made = try OpenID4VPRequest(responseURI: "\(base)/v1/oid4vp/responses/\(Self.responseId(id))", query: requested, signer: signer,
                                        redirectURI: body.redirectUri)
        } catch {
            throw ServiceProblem(.internalServerError, "READER_AUTH_FAILED", "the request object could not be signed")
        }
        let requestObjectId = SessionIdentifier.make()
        let responseId = Self.responseId(id)
        // A session and its result are one budget: the result's room is reserved first (an empty record that only the
        // wallet's answer fills), so an integrator that leaves results unfetched is refused here, never its wallets.
        try await sessions.store(SessionRecord(id: Self.resultId(responseId: responseId), kind: Self.resultKind, createdAt: created,
                                               expiresAt: Self.resultExpiry(sessionExpiresAt: expiresAt), payload: SecretBytes([])),
                                 for: integrator, now: created)
        // The wallet sees only the response id: it cannot compute the caller's session id from it.
        try await sessions.store(made.session.record(id: responseId, createdAt: created, expiresAt: expiresAt),
                                 for: integrator, now: created)
        try await sessions.store(SessionRecord(id: requestObjectId, kind: Self.requestObjectKind, createdAt: created, expiresAt: expiresAt,
                                               payload: SecretBytes(Array((made.signedRequest ?? "").utf8))),
                                 for: integrator, now: created)
        let requestURI = "\(base)/v1/oid4vp/request-objects/\(requestObjectId)"
        let authorizationRequest = "openid4vp://?client_id=\(Self.formEncoded(signer.clientId))&request_uri=\(Self.formEncoded(requestURI))"
        return .json(.object([
            ("sessionId", .string(id)),
            ("expiresAt", .string(ReportJSON.timestamp(expiresAt))),
            ("authorizationRequest", .string(authorizationRequest)),
        ]), status: .created)
    }

    static func formEncoded(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }

    func verify(_ request: HTTPServerRequest, for integrator: Integrator) async throws(ServiceProblem) -> HTTPServerResponse {
        _ = try configured(oid4vp, "oid4vp")
        let body = try RequestDecoding.decode(OpenID4VPVerifyBody.self, from: request)
        let time = try clock.verificationTime(body.verificationTime)
        let session = try await sessions.take(body.sessionId, as: OpenID4VPSession.self, for: integrator)
        let verified: Verified
        do throws(ResponseFailure) {
            verified = await verifyAnswer(try WalletAnswer(body.response), session: session, at: time)
        } catch {
            verified = Verified(report: .failure(error.code, error.detail), credentialIds: [])
        }
        return try .report(verified.report, extra: verified.extra)
    }

    /// Verifies every presentation of an answer against its session (the routes and `verifierd oid4vp verify`).
    /// A verified answer: the report, and for each of its documents (in order) the DCQL credential id it answered.
    struct Verified {
        let report: VerificationReport
        let credentialIds: [String]

        /// The report member naming each document's credential id (`credentialIds`, parallel to `documents`).
        var extra: [(String, JSON?)] {
            credentialIds.isEmpty ? [] : [("credentialIds", .array(credentialIds.map { .string($0) }))]
        }
    }

    func verifyAnswer(_ answer: WalletAnswer, session: OpenID4VPSession, at time: Date, trust: TrustSnapshot? = nil) async
        -> Verified
    {
        let presentations: OpenID4VPPresentations
        do throws(ResponseFailure) {
            presentations = try OpenID4VPPresentations(answer, session: session)
        } catch {
            return Verified(report: .failure(error.code, error.detail), credentialIds: [])
        }
        let transcript = session.transcript
        var documents: [DocumentReport] = []
        var credentialIds: [String] = []
        for presentation in presentations.presentations {
            var options = verification.options(at: time)
            options.requestedItems = presentation.requested
            let report = await verification.verify(presentation.deviceResponse, sessionTranscript: transcript, options: options,
                                                   trust: trust)
            guard !report.documents.isEmpty else { return Verified(report: report, credentialIds: []) }
            documents += report.documents
            credentialIds += Array(repeating: presentation.credentialId, count: report.documents.count)
        }
        return Verified(report: VerificationReport(documents: documents), credentialIds: credentialIds)
    }

    /// `GET /v1/oid4vp/request-objects/{id}`: the signed request object, once (a wallet's call, no integrator token).
    func requestObject(_ request: HTTPServerRequest, _: Void) async throws(ServiceProblem) -> HTTPServerResponse {
        _ = try configured(oid4vp, "oid4vp")
        let id = request.pathParameters["id"] ?? ""
        let refusals = SessionDesk.TakeRefusals(
            notFound: ServiceProblem(.notFound, "SESSION_NOT_FOUND", "no such request object"),
            alreadyUsed: ServiceProblem(.conflict, "SESSION_ALREADY_USED", "this request object was already fetched"),
            expired: ServiceProblem(.gone, "SESSION_EXPIRED", "this request expired"))
        guard SessionIdentifier.isWellFormed(id) else { throw refusals.notFound }
        let record = try await sessions.takeRecord(id, kind: Self.requestObjectKind, owner: nil, refusals: refusals)
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
        if let response = fields["response"], fields["error"] == nil {
            answer = .encrypted(response)
        } else if let error = fields["error"], fields["response"] == nil {
            answer = .error(code: String(error.prefix(128)), description: fields["error_description"].map { String($0.prefix(512)) })
        } else {
            throw ServiceProblem.invalidRequest("exactly one of the fields response and error is expected")
        }
        let refusals = SessionDesk.TakeRefusals(
            notFound: ServiceProblem(.notFound, "SESSION_NOT_FOUND", "no such session"),
            alreadyUsed: ServiceProblem(.conflict, "SESSION_ALREADY_USED", "this session already has its answer"),
            expired: ServiceProblem(.gone, "SESSION_EXPIRED", "this session expired"))
        guard SessionIdentifier.isWellFormed(id) else { throw refusals.notFound }
        let record = try await sessions.takeRecord(id, kind: OpenID4VPSession.Flow.crossDevice.kind, owner: nil, refusals: refusals)
        guard let session = OpenID4VPSession(record: record) else {
            throw ServiceProblem(.internalServerError, "SESSION_UNREADABLE", "the stored session could not be read")
        }
        let verified = await verifyAnswer(answer, session: session, at: clock.now())
        let report = verified.report
        let outcome = report.verified ? "verified" : (report.failureCode?.rawValue ?? "NOT_VERIFIED")
        let extra: [(String, JSON?)] = report.documents.isEmpty ? [("detail", .string(report.failureDetail ?? ""))] : verified.extra
        // With a redirect URI, a fresh response code goes to the wallet's user agent (OpenID4VP 1.0 14.2, HAIP 5.1): the
        // result is released only to a caller that presents it, so an answer given in another browser is refused.
        let responseCode = session.redirectURI == nil ? "" : SessionIdentifier.make()
        var stored = [UInt8(report.verified ? 1 : 0), UInt8(responseCode.utf8.count)] + Array(responseCode.utf8)
        stored += ReportJSON.bytes(report, includeClaims: true, extra: extra)
        // Into the room reserved with the session: no quota or maximum can refuse it, and the wallet never sees one.
        switch await sessions.store.fill(id: Self.resultId(responseId: id), kind: Self.resultKind, payload: SecretBytes(stored),
                                         now: clock.now()) {
        case .filled:
            sessions.metrics.session(flow: Self.resultKind, event: "created")
        case .unavailable(let reason):
            throw SessionDesk.storeUnavailable(reason)
        case .alreadyFilled, .expired, .notFound:
            // Only when the reservation outlived its expiry (the answer took longer than the margin): the poll ends 410.
            sessions.metrics.session(flow: Self.resultKind, event: "expired")
        }
        // `redirect_uri` (8.2): where the wallet sends the user next, when the caller gave one.
        var response = HTTPServerResponse.json(JSON.object([
            ("redirect_uri", session.redirectURI.map { JSON.string("\($0)#response_code=\(responseCode)") }),
        ]))
        response.head.headerFields[.cacheControl] = "no-store"
        response.logAnnotations = ["outcome": outcome]
        return response
    }

    /// `GET /v1/oid4vp/sessions/{id}/result`: 202 while the wallet has not answered, then the report once, then 409.
    func result(_ request: HTTPServerRequest, for integrator: Integrator) async throws(ServiceProblem) -> HTTPServerResponse {
        _ = try configured(oid4vp, "oid4vp")
        let id = request.pathParameters["id"] ?? ""
        let notFound = ServiceProblem(.notFound, "SESSION_NOT_FOUND", "no such session")
        guard SessionIdentifier.isWellFormed(id) else { throw notFound }
        let responseId = Self.responseId(id)
        switch await sessions.store.takeFilled(id: Self.resultId(responseId: responseId), kind: Self.resultKind,
                                               owner: integrator.name, now: clock.now()) {
        case .taken(let record):
            sessions.metrics.session(flow: Self.resultKind, event: "taken")
            let bytes = record.payload.bytes
            guard bytes.count >= 2, bytes.count >= 2 + Int(bytes[1]) else {
                throw ServiceProblem(.internalServerError, "SESSION_UNREADABLE", "the stored result could not be read")
            }
            let code = Array(bytes[2..<(2 + Int(bytes[1]))])
            // The result is taken either way: a presentation whose response code does not come back is discarded.
            if !code.isEmpty {
                guard let presented = request.query("response_code"), ConstantTime.equals(presented, String(decoding: code, as: UTF8.self)) else {
                    throw ServiceProblem(.forbidden, "RESPONSE_CODE_MISMATCH",
                                         "response_code is not the one the wallet's redirect carried; the presentation is discarded")
                }
            }
            let verified = bytes[0] == 1
            var response = HTTPServerResponse.json(Array(bytes[(2 + Int(bytes[1]))...]), status: verified ? .ok : .unprocessableContent)
            response.logAnnotations = ["outcome": verified ? "verified" : "NOT_VERIFIED"]
            return response
        case .alreadyUsed:
            throw ServiceProblem(.conflict, "SESSION_ALREADY_USED", "this result was already fetched")
        case .unavailable(let reason):
            throw SessionDesk.storeUnavailable(reason)
        case .expired:
            throw ServiceProblem(.gone, "SESSION_EXPIRED", "the result was not fetched in time, or no answer was stored in time")
        case .notFound:
            throw notFound
        case .pending:
            break
        }
        // The reservation is still empty: waiting for the wallet, or its answer is being verified; a session that
        // expired unanswered ends the poll.
        switch await sessions.store.presence(id: responseId, kind: OpenID4VPSession.Flow.crossDevice.kind, owner: integrator.name,
                                             now: clock.now()) {
        case .open, .alreadyUsed:
            var response = HTTPServerResponse.json(JSON.object([("status", .string("pending"))]), status: .accepted)
            response.head.headerFields[.retryAfter] = "1"
            return response
        case .expired, .notFound:
            throw ServiceProblem(.gone, "SESSION_EXPIRED", "this session expired before the wallet answered")
        case .unavailable(let reason):
            throw SessionDesk.storeUnavailable(reason)
        }
    }

    /// How long a cross-device result (and the room reserved for it) is kept: the session's expiry and five minutes
    /// to fetch it.
    static func resultExpiry(sessionExpiresAt: Date) -> Date {
        sessionExpiresAt.addingTimeInterval(300)
    }

    /// The id in a cross-device session's response URI (and its store id): derived one way from the caller's session
    /// id, so the wallet, which sees it, cannot learn the handle the result is fetched with (OpenID4VP 1.0 14.3).
    static func responseId(_ sessionId: String) -> String {
        Base64URL.encode(Array(SHA256.hash(data: Array("oid4vp-response:\(sessionId)".utf8))))
    }

    /// Where a cross-device session's result is kept: a store id of its own, derived from the response id.
    static func resultId(responseId: String) -> String {
        Base64URL.encode(Array(SHA256.hash(data: Array("oid4vp-result:\(responseId)".utf8))))
    }
}
