import TrustStore
import X509

/// The trusted IACAs of a trust snapshot as path anchors: candidates by authority key identifier and issuer name.
/// None is pinned: a document signer must be issued by an IACA, never be one.
public struct IACAAnchors: PathAnchors {
    public let trust: TrustSnapshot
    public let name = "trusted IACA"

    public init(_ trust: TrustSnapshot) {
        self.trust = trust
    }

    public func issuers(of certificate: Certificate) -> [TrustAnchor] {
        trust.candidateIssuers(authorityKeyIdentifier: CertificationPathBuilder<Self>.authorityKeyIdentifier(of: certificate),
                               issuer: certificate.issuer)
    }

    public func pinned(_ certificate: Certificate) -> TrustAnchor? { nil }

    public func certificate(of anchor: TrustAnchor) -> Certificate { anchor.certificate }
}
