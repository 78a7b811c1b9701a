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

/// OpenID4VP 1.0, the integrator's routes: `POST /v1/oid4vp/requests` and `/v1/oid4vp/verify` (Digital Credentials
/// API, both response modes, signed and unsigned), and the cross-device request; its result is fetched once by the
/// caller (``CrossDeviceResultHandler``). The wallet's own cross-device routes are ``CrossDeviceWalletHandler``'s.
struct OpenID4VPHandler: Sendable {

    let oid4vp: ServiceConfiguration.OpenID4VP?
    let signer: RequestObjectSigner?
    /// The integrators' registration certificates, carried in their signed requests (nil without `registration`).
    let registrations: RegistrationCertificates?
    let sessions: SessionGate
    let verification: ResponseVerification
    let clock: RequestClock

    func createRequest(_ request: HTTPServerRequest, for integrator: Integrator) async throws(ServiceProblem) -> HTTPServerResponse {
        let oid4vp = try configured(oid4vp, "oid4vp")
        let body = try RequestDecoding.decode(OpenID4VPRequestBody.self, from: request)
        let requested = try Self.query(documents: body.documents, dcql: body.dcql_query, verification: verification)

        if requested.asksForSDJWTVC && verification.sdJwtVcIssuers == nil {
            throw ServiceProblem.invalidRequest("dcql_query asks for a dc+sd-jwt credential but SD-JWT VC verification is not configured (sdJwtVc)")
        }
        let transactionData = try TransactionDataRequest.read(request, present: body.transaction_data != nil, report: body.transactionDataReport,
                                                              query: requested, policy: oid4vp.transactionData)
        switch body.flow ?? "dc_api" {
        case "dc_api":
            return try await createDigitalCredentialsRequest(body, requested: requested, transactionData: transactionData, oid4vp: oid4vp,
                                                             for: integrator)
        case "cross-device":
            return try await createCrossDeviceRequest(body, requested: requested, transactionData: transactionData, oid4vp: oid4vp,
                                                      for: integrator)
        default:
            throw ServiceProblem.invalidRequest("\"flow\" is \"dc_api\" or \"cross-device\"")
        }
    }

    /// The DCQL query: the caller's own (`dcql_query`, checked), or one made from `documents` (or the default).
    static func query(documents: [RequestedDocument]?, dcql: RawJSON?, verification: ResponseVerification) throws(ServiceProblem) -> DCQLQuery {
        let zeroKnowledge = verification.zeroKnowledge
        guard let raw = dcql else {
            return DCQLQuery(try RequestedDocument.items(documents, zeroKnowledge: zeroKnowledge, naming: verification.anchorsToName))
        }
        guard documents == nil else { throw ServiceProblem.invalidRequest("give \"documents\" or \"dcql_query\", not both") }
        let query: DCQLQuery
        do {
            query = try DCQLQuery(parsing: raw, maximumCredentials: RequestLimits.maximumDocuments,
                                  maximumClaims: RequestLimits.maximumElementsPerDocument)
        } catch {
            if error.kind == .trustedAuthorityNotSupported {
                throw ServiceProblem(.badRequest, "TRUSTED_AUTHORITY_NOT_SUPPORTED", error.detail)
            }
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

    private func createDigitalCredentialsRequest(_ body: OpenID4VPRequestBody, requested: DCQLQuery, transactionData: TransactionData?,
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
        let registration = signer == nil ? nil : try await registrations?.certificate(for: integrator, query: requested, now: verification.now())
        let made: OpenID4VPRequest
        do {
            made = try OpenID4VPRequest(origin: origin, query: requested, mode: mode, signer: signer,
                                        verifierInfo: registration.map { [$0.verifierInfo] } ?? [], transactionData: transactionData)
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
            ("transactionData", Self.sent(transactionData)),
        ]), status: .created)
    }

    private func createCrossDeviceRequest(_ body: OpenID4VPRequestBody, requested: DCQLQuery, transactionData: TransactionData?,
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
        var method = oid4vp.requestURIMethod
        if let text = body.requestUriMethod {
            guard let chosen = RequestURIMethod(rawValue: text) else {
                throw ServiceProblem.invalidRequest("\"requestUriMethod\" is \"get\" or \"post\"")
            }
            method = chosen
        }
        let registration = try await registrations?.certificate(for: integrator, query: requested, now: verification.now())
        var authorizationRequest = ""
        let opened = try await sessions.open(lifetime: TimeInterval(oid4vp.sessionTTLSeconds), for: integrator) { opening throws(ServiceProblem) in
            let made: CrossDeviceRequest
            do {
                made = try CrossDeviceRequest(sessionId: opening.id, query: requested, signer: signer, redirectURI: redirectURI,
                                              endpoint: oid4vp.walletAuthorizationEndpoint, method: method,
                                              verifierInfo: registration.map { [$0.verifierInfo] } ?? [], transactionData: transactionData,
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
            ("transactionData", Self.sent(transactionData)),
        ]), status: .created)
    }

    /// The `transaction_data` strings exactly as sent, for the caller to keep (nil, so no member, when none).
    static func sent(_ transactionData: TransactionData?) -> JSON? {
        transactionData.map { .array($0.strings.map { .string($0) }) }
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
}
