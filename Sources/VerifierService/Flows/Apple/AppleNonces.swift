import Encodings
import Foundation
import SessionStore

/// Single-use nonces for `PKIdentityRequest.nonce`, kept in the session store so every replica honours them
/// (`apple.requireIssuedNonce`); `/v1/apple/verify` consumes one.
struct AppleNonces: Sendable {
    /// The session-store kind of an issued nonce.
    static let kind = SessionKind.appleNonce
    static let byteCount = 32

    let sessions: SessionGate
    let lifetime: TimeInterval

    /// A fresh nonce bound to the merchant and team IDs, owned by `integrator`.
    func issue(for identity: MerchantIdentity, to integrator: Integrator) async throws(ServiceProblem) -> (nonce: [UInt8], expiresAt: Date) {
        let nonce = RandomBytes.make(Self.byteCount)
        let issued = try await sessions.open(id: Base64URL.encode(nonce), lifetime: lifetime, for: integrator) { opening in
            [SessionRecord(id: opening.id, kind: Self.kind, createdAt: opening.createdAt, expiresAt: opening.expiresAt,
                           payload: SecretBytes(Self.binding(identity)))]
        }
        return (nonce, issued.expiresAt)
    }

    /// Consumes a nonce issued to this integrator for these merchant and team IDs and has `judging` decide on the
    /// answer that carries it (the nonce is put back when nothing was decided: ``SessionGate/judge(_:_:)``): 400
    /// `NONCE_UNKNOWN` (never issued, or issued to another integrator or for other IDs), 410 `NONCE_EXPIRED`, 409
    /// `NONCE_ALREADY_USED`, 503 `STORE_UNAVAILABLE`.
    func consume<Answer>(_ nonce: [UInt8], for identity: MerchantIdentity, by integrator: Integrator,
                         judging: () async throws(ServiceProblem) -> Answer) async throws(ServiceProblem) -> Answer {
        let unknown = ServiceProblem(.badRequest, "NONCE_UNKNOWN", "this nonce was not issued by POST /v1/apple/nonces")
        guard nonce.count == Self.byteCount else { throw unknown }
        let record = try await sessions.takeRecord(Base64URL.encode(nonce), kind: Self.kind, owner: integrator, refusals: .init(
            notFound: unknown,
            alreadyUsed: ServiceProblem(.conflict, "NONCE_ALREADY_USED", "this nonce was already used; request a new one"),
            expired: ServiceProblem(.gone, "NONCE_EXPIRED", "this nonce expired; request a new one")))
        guard record.payload.bytes == Self.binding(identity) else {
            throw ServiceProblem(.badRequest, "NONCE_UNKNOWN", "this nonce was issued for another merchant or team ID")
        }
        return try await sessions.judge(record, judging)
    }

    /// What an issued nonce is bound to: the merchant and team IDs it was issued for.
    static func binding(_ identity: MerchantIdentity) -> [UInt8] {
        Array("\(identity.merchantId)\u{0}\(identity.teamId)".utf8)
    }
}

extension SessionKind {
    /// A nonce issued for an Apple answer (`POST /v1/apple/nonces`, with `apple.requireIssuedNonce`).
    static let appleNonce: SessionKind = "apple-nonce"
}
