import Crypto
import Encodings
import Foundation
import HTTPServer
import MDoc
import OpenID4VP
import ReaderAuthentication
import ReportEncoding
import SessionStore
import StrictJSON
import WebPresentment

/// ISO 18013-7 Annex C over the Digital Credentials API: `POST /v1/web/requests` and `POST /v1/web/verify`.
struct WebHandler: Sendable {
    /// The integrators' registration certificates, carried in their requests (nil without `registration`).
    let registrations: RegistrationCertificates?
    let web: ServiceConfiguration.Web?
    let requestBuilder: DeviceRequestBuilder
    let sessions: SessionGate
    let verification: ResponseVerification
    let clock: RequestClock

    func createRequest(_ request: HTTPServerRequest, for integrator: Integrator) async throws(ServiceProblem) -> HTTPServerResponse {
        let web = try configured(web, "web")
        let body = try RequestDecoding.decode(WebRequestBody.self, from: request)
        return try await makeRequest(origin: try Self.allowedOrigin(body.origin, web), documents: body.documents, web: web,
                                     for: integrator)
    }

    /// A new session and the request its page passes to `navigator.credentials.get`, for an allowed origin (the
    /// route, and the demo page's `/demo/requests`).
    func makeRequest(origin: SerializedOrigin, documents: [RequestedDocument]?, web: ServiceConfiguration.Web,
                     for integrator: Integrator) async throws(ServiceProblem) -> HTTPServerResponse
    {
        let requested = try RequestedDocument.items(documents, zeroKnowledge: verification.zeroKnowledge, naming: verification.anchorsToName)
        let registration = try await registrations?.certificate(for: integrator, query: DCQLQuery(requested), now: verification.now())
        let made: WebRequest
        do {
            made = try WebRequest(origin: origin, requested: requested, builder: requestBuilder.registering(registration?.compact))
        } catch {
            throw ServiceProblem(.internalServerError, "READER_AUTH_FAILED", "the request could not be signed")
        }
        let opened = try await sessions.open(lifetime: TimeInterval(web.sessionTTLSeconds), for: integrator) { opening in
            [WebSession(made).record(id: opening.id, createdAt: opening.createdAt, expiresAt: opening.expiresAt)]
        }
        let data: JSON = .object([
            ("deviceRequest", .string(made.deviceRequest)), ("encryptionInfo", .string(made.encryptionInfo.base64URL)),
        ])
        return .json(.object([
            ("sessionId", .string(opened.id)),
            ("expiresAt", .string(ReportJSON.timestamp(opened.expiresAt))),
            ("request", .object([("protocol", .string(WebRequest.protocolIdentifier)), ("data", data)])),
        ]), status: .created)
    }

    func verify(_ request: HTTPServerRequest, for integrator: Integrator) async throws(ServiceProblem) -> HTTPServerResponse {
        let web = try configured(web, "web")
        let body = try RequestDecoding.decode(WebVerifyBody.self, from: request)
        let time = try clock.verificationTime(body.verificationTime)
        if let sessionId = body.sessionId {
            return try await verifySession(sessionId, response: body.response, at: time, for: integrator)
        }
        let session = try Self.statelessSession(body, web)
        return try .report(await verifyAnswer(body.response, session: session, at: time, for: integrator))
    }

    /// Takes a stored session (one use, whatever the verdict; put back only when the proof pool had no room to judge
    /// the answer) and verifies its answer.
    func verifySession(_ sessionId: String, response: String, at time: Date, for integrator: Integrator)
        async throws(ServiceProblem) -> HTTPServerResponse
    {
        try await sessions.take(sessionId, as: WebSession.self, for: integrator) { session throws(ServiceProblem) in
            try .report(await verifyAnswer(response, session: session, at: time, for: integrator))
        }
    }

    /// Decrypts and verifies an answer for a session, stored or stateless.
    func verifyAnswer(_ response: String, session: WebSession, at time: Date, for integrator: Integrator) async -> VerificationReport {
        await session.verifyAnswer(response, check: verification.check(at: time, for: integrator.name))
    }

    /// The origin as the configuration allows it; nothing else is ever put into a transcript.
    static func allowedOrigin(_ text: String, _ web: ServiceConfiguration.Web) throws(ServiceProblem) -> SerializedOrigin {
        guard let origin = SerializedOrigin(text), web.allowedOrigins.contains(origin) else {
            throw ServiceProblem(.badRequest, "ORIGIN_NOT_ALLOWED",
                                 "\"origin\" is not one of web.allowedOrigins (serialized exactly: scheme://host[:port], "
                                     + "no trailing slash)")
        }
        return origin
    }

    /// The stateless variant: the caller keeps the key and the encryptionInfo string.
    static func statelessSession(_ body: WebVerifyBody, _ web: ServiceConfiguration.Web) throws(ServiceProblem) -> WebSession {
        guard web.allowStatelessVerify else {
            throw ServiceProblem(.badRequest, "STATELESS_VERIFY_DISABLED",
                                 "\"sessionId\" is required: web.allowStatelessVerify is false")
        }
        guard let infoText = body.encryptionInfo, let originText = body.origin, let keyText = body.recipientPrivateKey else {
            throw ServiceProblem.invalidRequest(
                "without \"sessionId\", \"encryptionInfo\", \"origin\" and \"recipientPrivateKey\" are required")
        }
        let origin = try allowedOrigin(originText, web)
        let key = try recipientKey(keyText)
        do {
            return try WebSession.stateless(encryptionInfo: infoText, origin: origin, recipientKey: key)
        } catch {
            throw error.code == .recipientKeyUnknown
                ? ServiceProblem(.badRequest, "RECIPIENT_KEY_MISMATCH",
                                 "\"recipientPrivateKey\" does not match the encryptionInfo's recipientPublicKey")
                : ServiceProblem(.badRequest, "INVALID_ENCRYPTION_INFO", error.detail)
        }
    }

    /// A P-256 private key as base64 of the raw 32-byte scalar, or as PEM (SEC1 or PKCS#8).
    static func recipientKey(_ text: String) throws(ServiceProblem) -> P256.KeyAgreement.PrivateKey {
        let invalid = ServiceProblem(.badRequest, "INVALID_RECIPIENT_KEY",
                                     "\"recipientPrivateKey\" is not a P-256 private key (base64 raw scalar or PEM)")
        if text.contains("-----BEGIN") {
            guard let block = try? PEM.blocks(in: text).first(where: { PEM.privateKeyLabels.contains($0.label) }),
                  let key = try? P256.KeyAgreement.PrivateKey(derRepresentation: block.bytes) else { throw invalid }
            return key
        }
        guard let raw = Base64Input.decode(text), raw.count == 32,
              let key = try? P256.KeyAgreement.PrivateKey(rawRepresentation: raw) else { throw invalid }
        return key
    }
}
