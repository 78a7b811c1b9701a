import AppleWallet
import Crypto
import Foundation
import MDoc
import OpenID4VP
import ReaderToken
import ReportEncoding
import StatusList
import StrictJSON
import TrustStore
import WebPresentment

/// Entry points for the operations CLI (no HTTP involved): each calls the flow's library entry point with this
/// service's configured check (options, status, trust), never a route's handler.
extension VerifierService {
    /// Decrypts and verifies an envelope with the configured keys and trust set; returns whether it verified (for
    /// the CLI's exit code) and the report as JSON text.
    public func verifyAppleEnvelopeReport(_ envelope: [UInt8], nonce: [UInt8], merchantId: String, teamId: String,
                                          at time: Date) async -> (verified: Bool, text: String)
    {
        let report = await AppleIdentityVerifier(keys: apple.merchantKeys.keys).verify(
            envelope: envelope, nonce: nonce, merchantId: merchantId, teamId: teamId, check: verification.check(at: time, for: nil)).report
        return (report.verified, reportText(report))
    }

    /// Decrypts and verifies an Annex C answer with a caller-held recipient key (`verifierd web decrypt`); returns
    /// whether it verified and the report as JSON text. `encryptionInfo` must be the exact string the page was given.
    public func verifyWebResponse(_ response: String, encryptionInfo: String, origin: SerializedOrigin,
                                  recipientKey: P256.KeyAgreement.PrivateKey, at time: Date) async -> (verified: Bool, text: String)
    {
        let report: VerificationReport
        do {
            let session = try WebSession.stateless(encryptionInfo: encryptionInfo, origin: origin, recipientKey: recipientKey)
            report = await session.verifyAnswer(response, check: verification.check(at: time, for: nil))
        } catch {
            report = .failure(error.code, error.detail)
        }
        return (report.verified, reportText(report))
    }

    /// Verifies an OpenID4VP answer against session parameters given by hand (`verifierd oid4vp verify`), under
    /// `trust` when given (else the configured set); returns whether it verified and the report as JSON text.
    public func verifyOpenID4VPAnswer(_ answer: WalletAnswer, session: OpenID4VPSession, at time: Date,
                                      trust: TrustSnapshot? = nil, issuerTrust: TrustSnapshot? = nil) async -> (verified: Bool, text: String)
    {
        let verifier = OpenID4VPVerifier(mdoc: verification.check(at: time, for: nil, trust: trust),
                                         sdJwtVc: verification.sdJwtVcCheck(at: time, trust: issuerTrust))
        let verdict = await verifier.verify(answer, session: session)
        return (verdict.verified, String(decoding: VerdictJSON.bytes(verdict, includeClaims: true), as: UTF8.self))
    }

    /// The report as the HTTP API writes it, plus the detail of a response-level failure.
    func reportText(_ report: VerificationReport, extra documentsExtra: [(String, JSON?)] = []) -> String {
        let extra: [(String, JSON?)] = report.documents.isEmpty ? [("detail", .string(report.failureDetail ?? ""))] : documentsExtra
        return String(decoding: ReportJSON.bytes(report, includeClaims: true, extra: extra), as: UTF8.self)
    }

    /// Fetches and verifies one status list against the trust set, as `mso.status` would; returns a line for
    /// operators and whether the entry is valid.
    public func checkStatus(uri: String, index: UInt64?, identifier: [UInt8]?, at time: Date? = nil) async
        -> (valid: Bool, text: String)
    {
        let reference: StatusReferenceKey = identifier.map { .identifierList(.init(identifier: $0, uri: uri)) }
            ?? .statusList(.init(index: index ?? 0, uri: uri))
        let evidence = await statusResolver.evidence(for: reference, trust: iacaTrust.snapshot, now: time ?? now())
        let trust: String
        switch evidence.signerTrust {
        case .anchor(let sha256): trust = "signer chains to IACA \(sha256)"
        case .msoCertificate: trust = "signer chains to the MSO certificate"
        case .issuerKey(let issuer): trust = "signed by a metadata key of \(issuer)"
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
    public var merchantKeyHashes: [[UInt8]] { apple.merchantKeys.keys.map(\.pkRHash) }

    /// Mints one reader token now; nil when reader tokens are not configured.
    public func mintReaderToken(readerInstanceIdentifier: String) throws -> MintedReaderToken? {
        try readerTokens.readerTokens?.minter.mint(readerInstanceIdentifier: readerInstanceIdentifier, now: now())
    }
}
