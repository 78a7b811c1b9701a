import AppleWallet
import Encodings
import Foundation
import HTTPServer
import MDoc
import ReportEncoding
import StrictJSON

/// Apple "Verify with Wallet" in an app: `POST /v1/apple/verify`, `/v1/apple/session-transcript` and
/// `/v1/apple/nonces`.
struct AppleHandler: Sendable {
    let apple: ServiceConfiguration.Apple?
    let merchantKeys: MerchantKeyRing
    let metrics: ServiceMetrics
    let nonces: AppleNonces
    let verification: ResponseVerification
    let clock: RequestClock

    func verify(_ request: HTTPServerRequest, for integrator: Integrator) async throws(ServiceProblem) -> HTTPServerResponse {
        let apple = try configured(apple, "apple")
        let body = try RequestDecoding.decode(AppleVerifyRequest.self, from: request)
        let envelope = try RequestDecoding.base64(body.encryptedData, field: "encryptedData")
        let nonce = try RequestDecoding.base64(body.nonce, field: "nonce")
        let time = try clock.verificationTime(body.verificationTime)
        let identity = try MerchantIdentity(apple, merchantId: body.merchantId, teamId: body.teamId)
        let judging = { () async throws(ServiceProblem) -> HTTPServerResponse in
            let verified = await verifyAnswer(envelope, nonce: nonce, identity: identity, at: time, for: integrator.name)
            var response = try HTTPServerResponse.report(verified.report)
            // The key that opened the envelope, for the access line: an operator sees when an old key is idle.
            if let pkRHash = verified.pkRHash { response.logAnnotations["pkRHash"] = pkRHash.hexString }
            return response
        }
        guard apple.requireIssuedNonce else { return try await judging() }
        // The issued nonce is spent by the verdict, and put back when the proof pool had no room to judge the answer.
        return try await nonces.consume(nonce, for: identity, by: integrator, judging: judging)
    }

    /// Decrypts and verifies an envelope with the merchant keys in force; also says which key opened it (nil when
    /// none did), counted in `verifierd_apple_envelopes_opened_total`.
    func verifyAnswer(_ envelope: [UInt8], nonce: [UInt8], identity: MerchantIdentity, at time: Date, for caller: String?) async
        -> (report: VerificationReport, pkRHash: [UInt8]?)
    {
        let verified = await AppleIdentityVerifier(keys: merchantKeys.keys).verify(
            envelope: envelope, nonce: nonce, merchantId: identity.merchantId, teamId: identity.teamId,
            check: verification.check(at: time, for: caller))
        if let pkRHash = verified.pkRHash { metrics.appleEnvelopeOpened(pkRHash: pkRHash) }
        return verified
    }

    func sessionTranscript(_ request: HTTPServerRequest, for _: Integrator) throws(ServiceProblem) -> HTTPServerResponse {
        let apple = try configured(apple, "apple")
        let body = try RequestDecoding.decode(SessionTranscriptRequest.self, from: request)
        let nonce = try RequestDecoding.base64(body.nonce, field: "nonce")
        let identity = try MerchantIdentity(apple, merchantId: body.merchantId, teamId: body.teamId)
        var hashes = merchantKeys.keys.map(\.pkRHash)
        if let hex = body.pkRHash {
            guard let hash = [UInt8](hexString: hex), hash.count == 32 else {
                throw ServiceProblem.invalidRequest("\"pkRHash\" is not 32 bytes of hex")
            }
            hashes = [hash]
        }
        var transcripts: [JSON] = []
        for hash in hashes {
            let transcript: AppleSessionTranscript
            do {
                transcript = try AppleSessionTranscript(nonce: nonce, merchantId: identity.merchantId,
                                                        teamId: identity.teamId, pkRHash: hash)
            } catch {
                throw ServiceProblem(.badRequest, error.code.rawValue, error.detail)
            }
            transcripts.append(.object([
                ("pkRHash", .string(hash.hexString)),
                ("sessionTranscript", .string(Data(transcript.bytes).base64EncodedString())),
                ("infoHash", .string(transcript.infoHash.hexString)),
            ]))
        }
        return .json(.object([("transcripts", .array(transcripts))]))
    }

    /// 201 `{"nonce": base64 of 32 random bytes, "expiresAt"}`, bound to the merchant and team IDs. Only when
    /// `apple.requireIssuedNonce` is set (replay protection for Apple answers is on); otherwise 404
    /// `APPLE_NONCES_DISABLED`, so no nonce is kept that nothing would consume.
    func issueNonce(_ request: HTTPServerRequest, for integrator: Integrator) async throws(ServiceProblem) -> HTTPServerResponse {
        let apple = try configured(apple, "apple")
        guard apple.requireIssuedNonce else {
            throw ServiceProblem(.notFound, "APPLE_NONCES_DISABLED",
                                 "issued nonces are off (apple.requireIssuedNonce is false): /v1/apple/verify takes the "
                                 + "app's own nonce and does not protect against replayed answers")
        }
        let body = request.body.isEmpty ? AppleNonceRequest(merchantId: nil, teamId: nil)
            : try RequestDecoding.decode(AppleNonceRequest.self, from: request)
        let identity = try MerchantIdentity(apple, merchantId: body.merchantId, teamId: body.teamId)
        let issued = try await nonces.issue(for: identity, to: integrator)
        return .json(.object([
            ("nonce", .string(Data(issued.nonce).base64EncodedString())),
            ("expiresAt", .string(ReportJSON.timestamp(issued.expiresAt))),
        ]), status: .created)
    }
}
