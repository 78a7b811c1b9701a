import AppleWallet
import Foundation
import MDoc
import ReaderToken

/// Entry points for the operations CLI (no HTTP involved).
extension VerifierService {
    /// Decrypts and verifies an envelope with the configured keys and trust set; returns the report as JSON text.
    public func verifyAppleEnvelope(_ envelope: [UInt8], nonce: [UInt8], merchantId: String, teamId: String, at time: Date)
        -> String
    {
        let report = AppleIdentityVerifier(keys: merchantKeys).verify(
            envelope: envelope, nonce: nonce, merchantId: merchantId, teamId: teamId, trust: trustStore.snapshot,
            options: verificationOptions(at: time))
        var body = ReportJSON.body(report, includeClaims: true)
        if report.documents.isEmpty, case .object(var members) = body {
            members.append(("detail", .string(report.failureDetail ?? "")))
            body = .object(members)
        }
        return body.text
    }

    /// The pkRHash of every configured merchant encryption key.
    public var merchantKeyHashes: [[UInt8]] { merchantKeys.map(\.pkRHash) }

    /// Mints one reader token now; nil when reader tokens are not configured.
    public func mintReaderToken(readerInstanceIdentifier: String) throws -> MintedReaderToken? {
        try readerTokens?.minter.mint(readerInstanceIdentifier: readerInstanceIdentifier, now: now())
    }
}
