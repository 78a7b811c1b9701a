import Synchronization
import X509

/// Gives every snapshot a process-unique identity, so results derived from one snapshot are never reused for another.
private let snapshotCounter = Atomic<Int>(0)

/// An immutable set of trusted IACA roots, indexed for chain building.
///
/// A verification runs against one snapshot from start to end; replacing the trust set swaps in a new snapshot
/// without disturbing verifications in flight.
public struct TrustSnapshot: Sendable {
    /// Increases with every change of the trust set.
    public let version: Int
    /// Unique within the process for every snapshot ever made.
    public let identity: Int
    /// Every entry of the set: one per certificate and source.
    public let anchors: [TrustAnchor]
    /// The VICAL in force per source.
    public let lists: [String: TrustListRecord]
    /// Per purpose, one anchor per certificate whose entries permit it, with the union of the docTypes those entries
    /// allow: what chains are built against.
    private let indices: [TrustAnchorMetadata.Purpose: IssuerIndex]

    /// The anchors of one purpose, by subject key identifier and by subject name.
    private struct IssuerIndex: Sendable {
        let issuers: [TrustAnchor]
        let bySubjectKeyIdentifier: [[UInt8]: [Int]]
        let bySubject: [DistinguishedName: [Int]]

        init(_ entries: [TrustAnchor]) {
            let issuers = TrustSet.merge(entries, by: \.sha256)
            var bySKI: [[UInt8]: [Int]] = [:]
            var bySubject: [DistinguishedName: [Int]] = [:]
            for (index, anchor) in issuers.enumerated() {
                if let ski = anchor.subjectKeyIdentifier { bySKI[ski, default: []].append(index) }
                bySubject[anchor.certificate.subject, default: []].append(index)
            }
            self.issuers = issuers
            self.bySubjectKeyIdentifier = bySKI
            self.bySubject = bySubject
        }

        func candidates(authorityKeyIdentifier: [UInt8]?, issuer: DistinguishedName) -> [TrustAnchor] {
            if let aki = authorityKeyIdentifier, let indices = bySubjectKeyIdentifier[aki] {
                return indices.map { issuers[$0] }.filter { $0.certificate.subject == issuer }
            }
            return (bySubject[issuer] ?? []).map { issuers[$0] }
        }
    }

    public init(anchors: [TrustAnchor], version: Int = 1) {
        self.init(set: TrustSet(anchors: anchors), version: version)
    }

    public init(set: TrustSet, version: Int = 1) {
        let entries = set.normalized().anchors
        self.version = version
        self.identity = snapshotCounter.wrappingAdd(1, ordering: .relaxed).newValue
        self.anchors = entries
        self.lists = set.lists
        var indices: [TrustAnchorMetadata.Purpose: IssuerIndex] = [:]
        for purpose in TrustAnchorMetadata.Purpose.allCases {
            indices[purpose] = IssuerIndex(entries.filter { $0.metadata.permits(purpose) })
        }
        self.indices = indices
    }

    /// The set this snapshot holds.
    public var set: TrustSet { TrustSet(anchors: anchors, lists: lists) }

    public static let empty = TrustSnapshot(anchors: [], version: 0)

    /// Anchors that could have issued a certificate with this authority key identifier and issuer name.
    /// With an AKI, anchors are matched by SKI (names may repeat across keys); without one, by subject name.
    /// Only anchors that permit `purpose` are candidates (an issuance service of a list of trusted entities never
    /// roots a status-list signer, a revocation service never a credential).
    public func candidateIssuers(authorityKeyIdentifier: [UInt8]?, issuer: DistinguishedName,
                                 purpose: TrustAnchorMetadata.Purpose = .issuance) -> [TrustAnchor] {
        indices[purpose]?.candidates(authorityKeyIdentifier: authorityKeyIdentifier, issuer: issuer) ?? []
    }
}
