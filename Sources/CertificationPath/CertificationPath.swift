import X509

/// A verified certification path: from the leaf up to, not including, the anchor it ends in.
public struct CertificationPath<Anchor: Sendable>: Sendable {
    /// The leaf, then each intermediate CA in issuing order; empty when the leaf is itself a pinned anchor.
    public let path: [Certificate]
    public let anchor: Anchor
}
