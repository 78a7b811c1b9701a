import DigitalCredentials
import Foundation
import HTTPServer
import OpenID4VP
import ReaderAuthentication
import ReportEncoding
import StrictJSON
import WebPresentment

/// One request for every browser and wallet: `POST /v1/presentations/requests` offers it over every protocol the
/// configuration and the origin allow (``PresentationRequest``), `POST /v1/presentations/verify` verifies the
/// `DigitalCredential` the page received by the protocol it names. One session, used once, whichever answered.
struct PresentationHandler: Sendable {
    let presentations: ServiceConfiguration.Presentations
    let web: ServiceConfiguration.Web?
    let oid4vp: ServiceConfiguration.OpenID4VP?
    let requestBuilder: DeviceRequestBuilder
    let signer: RequestObjectSigner?
    /// The integrators' registration certificates, carried in their signed requests (nil without `registration`).
    let registrations: RegistrationCertificates?
    let sessions: SessionGate
    let verification: ResponseVerification
    let clock: RequestClock

    /// Whether a flow that can carry a presentation is configured (else the routes answer 503 `PRESENTATIONS_NOT_CONFIGURED`).
    var isAvailable: Bool { web != nil || oid4vp != nil }

    func createRequest(_ request: HTTPServerRequest, for integrator: Integrator) async throws(ServiceProblem) -> HTTPServerResponse {
        try available()
        let body = try RequestDecoding.decode(PresentationRequestBody.self, from: request)
        let query = try OpenID4VPHandler.query(documents: body.documents, dcql: body.dcql_query, verification: verification)
        let transactionData = try TransactionDataRequest.read(request, present: body.transaction_data != nil, report: body.transactionDataReport,
                                                              query: query, policy: oid4vp?.transactionData ?? .none)
        return try await makeRequest(origin: body.origin, query: query, transactionData: transactionData, for: integrator)
    }

    /// A new session and the `digital` object its page passes to `navigator.credentials.get` (the route, and the
    /// demo page's `/demo/requests`). The origin must be allowed by at least one offered protocol's section.
    func makeRequest(origin: String, query: DCQLQuery, transactionData: TransactionData? = nil, for integrator: Integrator)
        async throws(ServiceProblem) -> HTTPServerResponse
    {
        let webOrigin = web.flatMap { web in SerializedOrigin(origin).flatMap { web.allowedOrigins.contains($0) ? $0 : nil } }
        let openID4VPOrigin = oid4vp.flatMap { $0.allowedOrigins.contains(origin) ? origin : nil }
        guard webOrigin != nil || openID4VPOrigin != nil else {
            throw ServiceProblem(.badRequest, "ORIGIN_NOT_ALLOWED",
                                 "\"origin\" is in neither web.allowedOrigins nor oid4vp.allowedOrigins (compared exactly)")
        }
        if query.asksForSDJWTVC && verification.sdJwtVcIssuers == nil {
            throw ServiceProblem.invalidRequest("dcql_query asks for a dc+sd-jwt credential but SD-JWT VC verification is not configured (sdJwtVc)")
        }
        let registration = try await registrations?.certificate(for: integrator, query: query, now: verification.now())
        let made: PresentationRequest
        do throws(PresentationRequest.Failure) {
            made = try PresentationRequest(query: query, preference: presentations.protocols, webOrigin: webOrigin,
                                           openID4VPOrigin: openID4VPOrigin, builder: requestBuilder, signer: signer,
                                           registrationCertificate: registration, transactionData: transactionData)
        } catch {
            switch error.reason {
            case .nothingToOffer: throw ServiceProblem(.badRequest, "NO_PROTOCOL_AVAILABLE", error.detail)
            case .signingFailed: throw ServiceProblem(.internalServerError, "READER_AUTH_FAILED", error.detail)
            }
        }
        let opened = try await sessions.open(lifetime: TimeInterval(presentations.sessionTTLSeconds), for: integrator) { opening in
            [made.session.record(id: opening.id, createdAt: opening.createdAt, expiresAt: opening.expiresAt)]
        }
        return .json(.object([
            ("sessionId", .string(opened.id)),
            ("expiresAt", .string(ReportJSON.timestamp(opened.expiresAt))),
            ("protocols", .array(made.session.offered.map { .string($0.rawValue) })),
            ("digital", made.digital),
            ("transactionData", OpenID4VPHandler.sent(transactionData)),
        ]), status: .created)
    }

    func verify(_ request: HTTPServerRequest, for integrator: Integrator) async throws(ServiceProblem) -> HTTPServerResponse {
        try available()
        let body = try RequestDecoding.decode(PresentationVerifyBody.self, from: request)
        let time = try clock.verificationTime(body.verificationTime)
        return try await verifySession(body.sessionId, credential: body.credential, at: time, for: integrator)
    }

    /// Takes the session (once, whatever the verdict: an answer in a protocol it did not offer uses it up too; put
    /// back only when the proof pool had no room to judge it) and verifies the answer by its protocol's rules (the
    /// route, and the demo page's `/demo/verify`).
    func verifySession(_ sessionId: String, credential: DigitalCredentialResponse, at time: Date, for integrator: Integrator)
        async throws(ServiceProblem) -> HTTPServerResponse
    {
        try await sessions.take(sessionId, as: PresentationSession.self, for: integrator) { session throws(ServiceProblem) in
            let verdict: PresentationVerdict
            do throws(PresentationRefusal) {
                verdict = try await session.verify(credential, mdoc: verification.check(at: time, for: integrator.name),
                                                   openID4VP: verification.openID4VPVerifier(at: time, for: integrator.name))
            } catch {
                throw ServiceProblem(.badRequest, "PROTOCOL_NOT_OFFERED", error.detail)
            }
            let answered: (String, JSON?) = ("protocol", .string(verdict.answeredWith.rawValue))
            switch verdict {
            case .isoMdoc(let report):
                return try .report(report, extra: [answered])
            case .openID4VP(_, let openID4VPVerdict):
                return try .verdict(openID4VPVerdict, extra: [answered])
            }
        }
    }

    private func available() throws(ServiceProblem) {
        guard isAvailable else {
            throw ServiceProblem(.serviceUnavailable, "PRESENTATIONS_NOT_CONFIGURED",
                                 "presentations need the web or oid4vp section (the protocols they offer)")
        }
    }
}
