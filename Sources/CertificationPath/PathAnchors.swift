import X509

/// Where a certification path may end: the certificates trusted for one use.
public protocol PathAnchors: Sendable {
    /// What the caller learns about the anchor a path ends in (a trust-store entry, or just the certificate).
    associatedtype Anchor: Sendable

    /// How failures name these anchors ("trusted IACA", "signer anchor").
    var name: String { get }
    /// The anchors that may have issued `certificate` (by name and key identifier; no signature checked yet).
    func issuers(of certificate: Certificate) -> [Anchor]
    /// The anchor that `certificate` itself is, when it is pinned (trusted as it stands), else nil.
    func pinned(_ certificate: Certificate) -> Anchor?
    /// The anchor's certificate.
    func certificate(of anchor: Anchor) -> Certificate
}

/// Anchors given as certificates, each trusted as it stands (a VICAL source's signer anchor, the last certificate of
/// a configured reader chain).
public struct PinnedAnchors: PathAnchors {
    public let certificates: [Certificate]
    public let name: String

    public init(_ certificates: [Certificate], name: String) {
        self.certificates = certificates
        self.name = name
    }

    public func issuers(of certificate: Certificate) -> [Certificate] {
        certificates.filter { $0.subject == certificate.issuer }
    }

    public func pinned(_ certificate: Certificate) -> Certificate? {
        certificates.first { $0 == certificate }
    }

    public func certificate(of anchor: Certificate) -> Certificate { anchor }
}
