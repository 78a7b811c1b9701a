import AppleWallet
import Crypto
import Foundation
import MDoc
import ReaderToken
import StatusList
import WebPresentment

/// Entry points for the operations CLI (no HTTP involved).
extension VerifierService {
    /// Decrypts and verifies an envelope with the configured keys and trust set; returns the report as JSON text.
    public func verifyAppleEnvelope(_ envelope: [UInt8], nonce: [UInt8], merchantId: String, teamId: String, at time: Date)
        async -> String
    {
        let report: VerificationReport
        do {
            let opened = try AppleIdentityVerifier(keys: merchantKeys).open(
                envelope: envelope, nonce: nonce, merchantId: merchantId, teamId: teamId)
            report = await verify(opened.deviceResponse, sessionTranscript: opened.transcript.bytes,
                                  options: verificationOptions(at: time), trust: trustStore.snapshot)
        } catch {
            report = .failure(error.code, error.detail)
        }
        return reportText(report)
    }

    /// Decrypts and verifies an Annex C answer with a caller-held recipient key (`verifierd web decrypt`); returns
    /// the report as JSON text. `encryptionInfo` must be the exact string the page was given.
    public func verifyWebResponse(_ response: String, encryptionInfo: String, origin: SerializedOrigin,
                                  recipientKey: P256.KeyAgreement.PrivateKey, at time: Date) async -> String
    {
        let report: VerificationReport
        do throws(WebPresentmentError) {
            let info = try EncryptionInfo(base64URL: encryptionInfo)
            guard info.recipientPublicKey.x963Representation == recipientKey.publicKey.x963Representation else {
                throw WebPresentmentError(.recipientKeyUnknown, "the key does not match the encryptionInfo's recipientPublicKey")
            }
            let transcript = DCAPISessionTranscript(encryptionInfo: encryptionInfo, origin: origin.text)
            let opened = try WebResponseDecryptor.open(try EncryptedResponse(base64URL: response),
                                                       recipientKey: recipientKey, transcript: transcript)
            report = await verify(opened, sessionTranscript: transcript.bytes, options: verificationOptions(at: time),
                                  trust: trustStore.snapshot)
        } catch {
            report = .failure(error.code, error.detail)
        }
        return reportText(report)
    }

    /// The report as the HTTP API writes it, plus the detail of a response-level failure.
    func reportText(_ report: VerificationReport) -> String {
        var body = ReportJSON.body(report, includeClaims: true)
        if report.documents.isEmpty, case .object(var members) = body {
            members.append(("detail", .string(report.failureDetail ?? "")))
            body = .object(members)
        }
        return body.text
    }

    /// Fetches and verifies one status list against the trust set, as `mso.status` would; returns a line for
    /// operators and whether the entry is valid.
    public func checkStatus(uri: String, index: UInt64?, identifier: [UInt8]?) async -> (valid: Bool, text: String) {
        let reference: StatusReferenceKey = identifier.map { .identifierList(.init(identifier: $0, uri: uri)) }
            ?? .statusList(.init(index: index ?? 0, uri: uri))
        let evidence = await statusResolver.evidence(for: reference, trust: trustStore.snapshot, now: now())
        let trust: String
        switch evidence.signerTrust {
        case .anchor(let sha256): trust = "signer chains to IACA \(sha256)"
        case .msoCertificate: trust = "signer chains to the MSO certificate"
        case .none: trust = "no signer"
        }
        switch evidence.finding {
        case .status(let value):
            let name = [0: "VALID", 1: "INVALID (revoked)", 2: "SUSPENDED"][value] ?? "unknown value \(value)"
            return (value == 0, "status \(name); \(trust); \(evidence.source)")
        case .identifierListed(let listed):
            return (!listed, (listed ? "listed (revoked)" : "not listed") + "; \(trust); \(evidence.source)")
        case .unknown(let reason):
            return (false, "unknown: \(reason)")
        }
    }

    /// The pkRHash of every configured merchant encryption key.
    public var merchantKeyHashes: [[UInt8]] { merchantKeys.map(\.pkRHash) }

    /// Mints one reader token now; nil when reader tokens are not configured.
    public func mintReaderToken(readerInstanceIdentifier: String) throws -> MintedReaderToken? {
        try readerTokens?.minter.mint(readerInstanceIdentifier: readerInstanceIdentifier, now: now())
    }
}
