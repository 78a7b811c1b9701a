import TrustStore
import X509

/// The anchors of a trust snapshot (IACAs, or SD-JWT VC issuer CAs) as path anchors: candidates by authority key identifier and issuer name.
/// None is pinned: a document signer must be issued by an IACA, never be one.
public struct IACAAnchors: PathAnchors {
    public let trust: TrustSnapshot
    public let name: String
    /// Only anchors that permit this purpose root a path.
    public let purpose: TrustAnchorMetadata.Purpose

    /// `name` says in failures what the anchors are ("trusted IACA", "trusted SD-JWT VC issuer anchor"); `purpose`
    /// what the path is for (a credential's issuer, or a status-list signer).
    public init(_ trust: TrustSnapshot, name: String = "trusted IACA", purpose: TrustAnchorMetadata.Purpose = .issuance) {
        self.trust = trust
        self.name = name
        self.purpose = purpose
    }

    public func issuers(of certificate: Certificate) -> [TrustAnchor] {
        trust.candidateIssuers(authorityKeyIdentifier: CertificationPathBuilder<Self>.authorityKeyIdentifier(of: certificate),
                               issuer: certificate.issuer, purpose: purpose)
    }

    public func pinned(_ certificate: Certificate) -> TrustAnchor? { nil }

    public func certificate(of anchor: TrustAnchor) -> Certificate { anchor.certificate }
}
