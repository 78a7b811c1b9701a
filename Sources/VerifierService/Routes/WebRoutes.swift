import Crypto
import Encodings
import Foundation
import HTTPServer
import HTTPTypes
import MDoc
import SessionStore
import ReaderAuthentication
import WebPresentment

/// `POST /v1/web/requests` and `POST /v1/web/verify`: ISO 18013-7 Annex C over the Digital Credentials API.
extension VerifierService {
    struct WebRequestBody: RequestBody {
        static let fields: Set<String> = ["origin", "documents"]
        struct DocumentBody: KnownFields {
            static let fields = Set(CodingKeys.allCases.map(\.rawValue))
            let docType: String
            /// namespace -> element -> intentToRetain
            let elements: [String: [String: Bool]]

            private enum CodingKeys: String, CodingKey, CaseIterable { case docType, elements }

            init(from decoder: any Decoder) throws {
                try Self.refuseUnknownFields(decoder)
                let container = try decoder.container(keyedBy: CodingKeys.self)
                docType = try container.decode(String.self, forKey: .docType)
                elements = try container.decode([String: [String: Bool]].self, forKey: .elements)
            }
        }

        let origin: String
        let documents: [DocumentBody]?
    }

    struct WebVerifyBody: RequestBody {
        static let fields: Set<String> = ["sessionId", "response", "encryptionInfo", "origin", "recipientPrivateKey", "verificationTime"]
        let sessionId: String?
        let response: String
        // The stateless variant (web.allowStatelessVerify).
        let encryptionInfo: String?
        let origin: String?
        let recipientPrivateKey: String?
        let verificationTime: String?
    }

    /// The origin as the configuration allows it; nothing else is ever put into a transcript.
    func allowedOrigin(_ text: String, _ web: ServiceConfiguration.Web) throws(ServiceProblem) -> SerializedOrigin {
        guard let origin = SerializedOrigin(text), web.allowedOrigins.contains(origin) else {
            throw ServiceProblem(.badRequest, "ORIGIN_NOT_ALLOWED",
                                 "\"origin\" is not one of web.allowedOrigins (serialized exactly: scheme://host[:port], "
                                     + "no trailing slash)")
        }
        return origin
    }

    func createWebRequest(_ request: HTTPServerRequest, for integrator: Integrator) async throws(ServiceProblem) -> HTTPServerResponse {
        let web = try configured(configuration.web, "web")
        let body = try RequestDecoding.decode(WebRequestBody.self, from: request)
        let origin = try allowedOrigin(body.origin, web)
        let requested = try Self.requestedItems(body.documents)
        let made: WebRequest
        do {
            made = try WebRequest(origin: origin, requested: requested, builder: deviceRequestBuilder)
        } catch {
            throw ServiceProblem(.internalServerError, "READER_AUTH_FAILED", "the request could not be signed")
        }
        let created = now()
        let expiresAt = created.addingTimeInterval(TimeInterval(web.sessionTTLSeconds))
        let id = SessionIdentifier.make()
        try await storeSession(WebSession(made).record(id: id, createdAt: created, expiresAt: expiresAt), for: integrator,
                               now: created)
        metrics.session(flow: "web", event: "created")
        let data: JSON = .object([
            ("deviceRequest", .string(made.deviceRequest)), ("encryptionInfo", .string(made.encryptionInfo.base64URL)),
        ])
        return .json(.object([
            ("sessionId", .string(id)),
            ("expiresAt", .string(ReportJSON.timestamp(expiresAt))),
            ("request", .object([("protocol", .string(WebRequest.protocolIdentifier)), ("data", data)])),
        ]), status: .created)
    }

    /// What a web or proximity request asks for: the JSON documents (namespaces and elements sorted by name, as
    /// JSON objects have no order) or the default, within ``RequestLimits`` (else 400 `INVALID_REQUEST`).
    static func requestedItems(_ documents: [WebRequestBody.DocumentBody]?) throws(ServiceProblem) -> RequestedItems {
        guard let documents else { return RequestLimits.defaultRequest }
        let requested = RequestedItems(documents: documents.map { document in
            RequestedItems.Document(docType: document.docType, nameSpaces: document.elements.sorted { $0.key < $1.key }.map {
                (nameSpace: $0.key, elements: $0.value.sorted { $0.key < $1.key }.map { RequestedItems.Element($0.key, intentToRetain: $0.value) })
            })
        })
        if let problem = RequestLimits.problem(with: requested) { throw ServiceProblem.invalidRequest(problem) }
        return requested
    }

    func webVerify(_ request: HTTPServerRequest, for integrator: Integrator) async throws(ServiceProblem) -> HTTPServerResponse {
        let started = ContinuousClock.now
        let web = try configured(configuration.web, "web")
        let body = try RequestDecoding.decode(WebVerifyBody.self, from: request)
        let time = try RequestDecoding.verificationTime(
            body.verificationTime, allowed: configuration.verification.allowVerificationTimeOverride, now: now())
        let session: WebSession
        if let sessionId = body.sessionId {
            session = try await takeSession(sessionId, as: WebSession.self, for: integrator)
        } else {
            session = try statelessWebSession(body, web)
        }
        return try reportResponse(await verifyWebAnswer(body.response, session: session, at: time), endpoint: "web",
                                  started: started)
    }

    /// Decrypts and verifies an answer for a session, stored or stateless (the route and `verifierd web decrypt`).
    func verifyWebAnswer(_ response: String, session: WebSession, at time: Date) async -> VerificationReport {
        do throws(ResponseFailure) {
            let encrypted = try EncryptedResponse(base64URL: response)
            let deviceResponse = try WebResponseDecryptor.open(encrypted, recipientKey: session.recipientKey,
                                                               transcript: session.transcript)
            var options = verificationOptions(at: time)
            options.requestedItems = session.requested
            return await verify(deviceResponse, sessionTranscript: session.transcript.bytes, options: options,
                                trust: trustStore.snapshot)
        } catch {
            return .failure(error.code, error.detail)
        }
    }

    /// The stateless variant: the caller keeps the key and the encryptionInfo string.
    func statelessWebSession(_ body: WebVerifyBody, _ web: ServiceConfiguration.Web) throws(ServiceProblem) -> WebSession {
        guard web.allowStatelessVerify else {
            throw ServiceProblem(.badRequest, "STATELESS_VERIFY_DISABLED",
                                 "\"sessionId\" is required: web.allowStatelessVerify is false")
        }
        guard let infoText = body.encryptionInfo, let originText = body.origin, let keyText = body.recipientPrivateKey else {
            throw ServiceProblem.invalidRequest(
                "without \"sessionId\", \"encryptionInfo\", \"origin\" and \"recipientPrivateKey\" are required")
        }
        let origin = try allowedOrigin(originText, web)
        let key = try Self.recipientKey(keyText)
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
