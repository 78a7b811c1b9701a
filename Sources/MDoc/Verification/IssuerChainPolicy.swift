import CertificationPath
import COSE

/// Limits on the issuer's certification path, applied before any signature is checked.
///
/// ISO 18013-5 Annex B has the IACA sign document signer certificates directly (its basicConstraints carry
/// pathLenConstraint 0), so the default allows no intermediate CA at all. The caps bound the work a sender can ask
/// for: x5chain entries beyond them are refused unread.
public struct IssuerChainPolicy: Sendable, Hashable {
    /// Most certificates in an x5chain (the DS, plus any the issuer adds, such as its IACA).
    public var maximumCertificates: Int
    /// Largest DER certificate accepted in an x5chain.
    public var maximumCertificateBytes: Int
    /// Intermediate CAs allowed between the trusted IACA and the DS (0 under the ISO 18013-5 profile). Whatever this
    /// allows, RFC 5280 basicConstraints (cA, pathLenConstraint) and keyCertSign are enforced on every CA.
    public var maximumIntermediateCAs: Int

    public init(maximumCertificates: Int = 5, maximumCertificateBytes: Int = 16_384, maximumIntermediateCAs: Int = 0) {
        self.maximumCertificates = maximumCertificates
        self.maximumCertificateBytes = maximumCertificateBytes
        self.maximumIntermediateCAs = maximumIntermediateCAs
    }

    /// The ISO 18013-5 profile: DS directly under the IACA, at most 5 certificates of 16 KiB.
    public static let iso18013 = IssuerChainPolicy()

    /// The document-signer rule set: keys COSE can verify (leaf first, before anything else), at most
    /// ``maximumIntermediateCAs`` intermediates, RFC 5280 CA constraints with the IACA profile's required keyUsage.
    var rules: [any PathRule] {
        [
            MaximumIntermediateCAs(maximumIntermediateCAs, profile: "the IACA profile"),
            CertificateAuthorityConstraints(keyUsageRequired: true),
            AcceptedKeys("an EC P-256, P-384 or P-521 key") { COSEPublicKey(certificate: $0) != nil },
        ]
    }
}
