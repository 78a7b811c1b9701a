import Encodings
import Foundation
import HTTPServer
import SessionStore

/// `POST /v1/apple/nonces`: single-use nonces for `PKIdentityRequest.nonce`, kept in the session store so every
/// replica honours them; `/v1/apple/verify` consumes one. The route answers only when `apple.requireIssuedNonce` is
/// set (replay protection for Apple answers is on); otherwise it is 404 `APPLE_NONCES_DISABLED`, so no nonce is
/// kept that nothing would consume.
extension VerifierService {
    /// The session-store kind of an issued nonce.
    static let appleNonceKind = "apple-nonce"
    static let appleNonceByteCount = 32

    struct AppleNonceRequest: RequestBody {
        static let fields: Set<String> = ["merchantId", "teamId"]
        let merchantId: String?
        let teamId: String?
    }

    /// 201 `{"nonce": base64 of 32 random bytes, "expiresAt"}`, bound to the merchant and team IDs.
    func issueAppleNonce(_ request: HTTPServerRequest, for integrator: Integrator) async throws(ServiceProblem)
        -> HTTPServerResponse
    {
        let apple = try configured(configuration.apple, "apple")
        guard apple.requireIssuedNonce else {
            throw ServiceProblem(.notFound, "APPLE_NONCES_DISABLED",
                                 "issued nonces are off (apple.requireIssuedNonce is false): /v1/apple/verify takes the "
                                 + "app's own nonce and does not protect against replayed answers")
        }
        let body = request.body.isEmpty ? AppleNonceRequest(merchantId: nil, teamId: nil)
            : try RequestDecoding.decode(AppleNonceRequest.self, from: request)
        let ids = try merchantAndTeam(apple, merchantId: body.merchantId, teamId: body.teamId)
        var generator = SystemRandomNumberGenerator()
        let nonce = (0..<Self.appleNonceByteCount).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let created = now()
        let expiresAt = created.addingTimeInterval(TimeInterval(apple.nonceTTLSeconds))
        try await storeSession(SessionRecord(id: Base64URL.encode(nonce), kind: Self.appleNonceKind, createdAt: created,
                                             expiresAt: expiresAt,
                                             payload: SecretBytes(Self.nonceBinding(ids.merchantId, ids.teamId))),
                               for: integrator, now: created)
        metrics.session(flow: Self.appleNonceKind, event: "created")
        return .json(.object([
            ("nonce", .string(Data(nonce).base64EncodedString())),
            ("expiresAt", .string(ReportJSON.timestamp(expiresAt))),
        ]), status: .created)
    }

    /// Consumes a nonce issued to this integrator for these merchant and team IDs: 400 `NONCE_UNKNOWN` (never issued,
    /// or issued to another integrator or for other IDs), 410 `NONCE_EXPIRED`, 409 `NONCE_ALREADY_USED`, 503 `STORE_UNAVAILABLE`.
    func consumeAppleNonce(_ nonce: [UInt8], merchantId: String, teamId: String, for integrator: Integrator)
        async throws(ServiceProblem)
    {
        let unknown = ServiceProblem(.badRequest, "NONCE_UNKNOWN", "this nonce was not issued by POST /v1/apple/nonces")
        guard nonce.count == Self.appleNonceByteCount else { throw unknown }
        let record = try await takeRecord(Base64URL.encode(nonce), kind: Self.appleNonceKind, owner: integrator, refusals: TakeRefusals(
            notFound: unknown,
            alreadyUsed: ServiceProblem(.conflict, "NONCE_ALREADY_USED", "this nonce was already used; request a new one"),
            expired: ServiceProblem(.gone, "NONCE_EXPIRED", "this nonce expired; request a new one")))
        guard record.payload.bytes == Self.nonceBinding(merchantId, teamId) else {
            throw ServiceProblem(.badRequest, "NONCE_UNKNOWN", "this nonce was issued for another merchant or team ID")
        }
    }

    /// What an issued nonce is bound to: the merchant and team IDs it was issued for.
    static func nonceBinding(_ merchantId: String, _ teamId: String) -> [UInt8] {
        Array("\(merchantId)\u{0}\(teamId)".utf8)
    }
}
