import AppleWallet
import Encodings
import Foundation
import HTTPServer
import MDoc
import TrustStore

/// `POST /v1/apple/verify` and `POST /v1/apple/session-transcript`.
extension VerifierService {
    struct AppleVerifyRequest: RequestBody {
        static let fields: Set<String> = ["encryptedData", "nonce", "merchantId", "teamId", "verificationTime"]
        let encryptedData: String
        let nonce: String
        let merchantId: String?
        let teamId: String?
        let verificationTime: String?
    }

    struct SessionTranscriptRequest: RequestBody {
        static let fields: Set<String> = ["nonce", "merchantId", "teamId", "pkRHash"]
        let nonce: String
        let merchantId: String?
        let teamId: String?
        let pkRHash: String?
    }

    /// The merchant and team IDs for a request: the configured ones, or ones the request names that the
    /// configuration allows. Nothing a request says about itself is trusted beyond that list.
    func merchantAndTeam(_ apple: ServiceConfiguration.Apple, merchantId: String?, teamId: String?)
        throws(ServiceProblem) -> (merchantId: String, teamId: String)
    {
        let merchant = merchantId ?? apple.merchantId
        let team = teamId ?? apple.teamId
        guard apple.allows(merchantId: merchant) else {
            throw ServiceProblem(.badRequest, "MERCHANT_ID_NOT_ALLOWED",
                                 "\"merchantId\" is neither apple.merchantId nor listed in apple.allowedMerchantIds")
        }
        guard apple.allows(teamId: team) else {
            throw ServiceProblem(.badRequest, "TEAM_ID_NOT_ALLOWED",
                                 "\"teamId\" is neither apple.teamId nor listed in apple.allowedTeamIds")
        }
        return (merchant, team)
    }

    func appleVerify(_ request: HTTPServerRequest, for integrator: Integrator) async throws(ServiceProblem) -> HTTPServerResponse {
        let started = ContinuousClock.now
        let apple = try configured(configuration.apple, "apple")
        let body = try RequestDecoding.decode(AppleVerifyRequest.self, from: request)
        let envelope = try RequestDecoding.base64(body.encryptedData, field: "encryptedData")
        let nonce = try RequestDecoding.base64(body.nonce, field: "nonce")
        let time = try RequestDecoding.verificationTime(
            body.verificationTime, allowed: configuration.verification.allowVerificationTimeOverride, now: now())
        let ids = try merchantAndTeam(apple, merchantId: body.merchantId, teamId: body.teamId)
        if apple.requireIssuedNonce {
            try await consumeAppleNonce(nonce, merchantId: ids.merchantId, teamId: ids.teamId, for: integrator)
        }
        let report = await verifyAppleAnswer(envelope, nonce: nonce, merchantId: ids.merchantId, teamId: ids.teamId, at: time)
        return try reportResponse(report, endpoint: "apple", started: started)
    }

    /// Decrypts and verifies an envelope with the configured merchant keys (the route and `verifierd decrypt`).
    func verifyAppleAnswer(_ envelope: [UInt8], nonce: [UInt8], merchantId: String, teamId: String, at time: Date)
        async -> VerificationReport
    {
        do throws(AppleWalletError) {
            let opened = try AppleIdentityVerifier(keys: merchantKeys).open(
                envelope: envelope, nonce: nonce, merchantId: merchantId, teamId: teamId)
            return await verify(opened.deviceResponse, sessionTranscript: opened.transcript.bytes,
                                options: verificationOptions(at: time), trust: trustStore.snapshot)
        } catch {
            return .failure(error.code, error.detail)
        }
    }

    func sessionTranscript(_ request: HTTPServerRequest) throws(ServiceProblem) -> HTTPServerResponse {
        let apple = try configured(configuration.apple, "apple")
        let body = try RequestDecoding.decode(SessionTranscriptRequest.self, from: request)
        let nonce = try RequestDecoding.base64(body.nonce, field: "nonce")
        let ids = try merchantAndTeam(apple, merchantId: body.merchantId, teamId: body.teamId)
        var hashes = merchantKeys.map(\.pkRHash)
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
                transcript = try AppleSessionTranscript(nonce: nonce, merchantId: ids.merchantId,
                                                        teamId: ids.teamId, pkRHash: hash)
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
}
