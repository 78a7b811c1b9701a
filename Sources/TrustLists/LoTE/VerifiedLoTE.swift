import CertificateRevocation
import Foundation

/// A list of trusted entities whose signature, signer, content and profile were checked: the certificates it lists,
/// each with what it grants.
public struct VerifiedLoTE: Sendable {
    /// The source name the list was configured under.
    public let source: String
    public let kind: LoTEKind
    /// `LoTESequenceNumber`: increases with every issue of the list.
    public let sequenceNumber: UInt64
    /// `ListIssueDateTime`.
    public let issued: Date
    /// `NextUpdate`: the list is stale after it.
    public let nextUpdate: Date
    /// The English `SchemeOperatorName` (else the first).
    public let operatorName: String
    /// The subject of the signing certificate (x5c[0]).
    public let signer: String
    /// SHA-256 of the list's bytes, lowercase hex.
    public let sha256: String
    /// Every certificate the services list, in list order, with what it grants.
    public let grants: [LoTEGrant]
    /// Identities not taken, by place in the list, with the reason (a certificate that does not parse, an end-entity
    /// certificate where the profile lists CAs, an identity without certificates).
    public let skipped: [(index: String, reason: String)]
    /// The signer's path below its anchor (x5c[0] and any intermediate), each with its issuer: what the list
    /// signer's CRLs are checked for.
    public let signerLinks: [ChainRevocationChecker.Link]

    public init(source: String, kind: LoTEKind, sequenceNumber: UInt64, issued: Date, nextUpdate: Date,
                operatorName: String, signer: String, sha256: String, grants: [LoTEGrant],
                skipped: [(index: String, reason: String)], signerLinks: [ChainRevocationChecker.Link] = []) {
        self.source = source
        self.kind = kind
        self.sequenceNumber = sequenceNumber
        self.issued = issued
        self.nextUpdate = nextUpdate
        self.operatorName = operatorName
        self.signer = signer
        self.sha256 = sha256
        self.grants = grants
        self.skipped = skipped
        self.signerLinks = signerLinks
    }
}
