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
    /// One per certificate, with the union of the docTypes its entries allow: what chains are built against.
    private let issuers: [TrustAnchor]
    private let bySubjectKeyIdentifier: [[UInt8]: [Int]]
    private let bySubject: [DistinguishedName: [Int]]

    public init(anchors: [TrustAnchor], version: Int = 1) {
        self.init(set: TrustSet(anchors: anchors), version: version)
    }

    public init(set: TrustSet, version: Int = 1) {
        let entries = set.normalized().anchors
        let issuers = TrustSet.merge(entries, by: \.sha256)
        self.version = version
        self.identity = snapshotCounter.wrappingAdd(1, ordering: .relaxed).newValue
        self.anchors = entries
        self.lists = set.lists
        self.issuers = issuers
        var bySKI: [[UInt8]: [Int]] = [:]
        var bySubject: [DistinguishedName: [Int]] = [:]
        for (index, anchor) in issuers.enumerated() {
            if let ski = anchor.subjectKeyIdentifier { bySKI[ski, default: []].append(index) }
            bySubject[anchor.certificate.subject, default: []].append(index)
        }
        self.bySubjectKeyIdentifier = bySKI
        self.bySubject = bySubject
    }

    /// The set this snapshot holds.
    public var set: TrustSet { TrustSet(anchors: anchors, lists: lists) }

    public static let empty = TrustSnapshot(anchors: [], version: 0)

    /// Anchors that could have issued a certificate with this authority key identifier and issuer name.
    /// With an AKI, anchors are matched by SKI (names may repeat across keys); without one, by subject name.
    public func candidateIssuers(authorityKeyIdentifier: [UInt8]?, issuer: DistinguishedName) -> [TrustAnchor] {
        if let aki = authorityKeyIdentifier, let indices = bySubjectKeyIdentifier[aki] {
            return indices.map { issuers[$0] }.filter { $0.certificate.subject == issuer }
        }
        return (bySubject[issuer] ?? []).map { issuers[$0] }
    }
}
