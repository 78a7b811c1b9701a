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
    public let anchors: [TrustAnchor]
    private let bySubjectKeyIdentifier: [[UInt8]: [Int]]
    private let bySubject: [DistinguishedName: [Int]]

    public init(anchors: [TrustAnchor], version: Int = 1) {
        var unique: [TrustAnchor] = []
        var seen = Set<String>()
        for anchor in anchors where seen.insert(anchor.sha256).inserted {
            unique.append(anchor)
        }
        self.version = version
        self.identity = snapshotCounter.wrappingAdd(1, ordering: .relaxed).newValue
        self.anchors = unique
        var bySKI: [[UInt8]: [Int]] = [:]
        var bySubject: [DistinguishedName: [Int]] = [:]
        for (index, anchor) in unique.enumerated() {
            if let ski = anchor.subjectKeyIdentifier { bySKI[ski, default: []].append(index) }
            bySubject[anchor.certificate.subject, default: []].append(index)
        }
        self.bySubjectKeyIdentifier = bySKI
        self.bySubject = bySubject
    }

    public static let empty = TrustSnapshot(anchors: [], version: 0)

    /// Anchors that could have issued a certificate with this authority key identifier and issuer name.
    /// With an AKI, anchors are matched by SKI (names may repeat across keys); without one, by subject name.
    public func candidateIssuers(authorityKeyIdentifier: [UInt8]?, issuer: DistinguishedName) -> [TrustAnchor] {
        if let aki = authorityKeyIdentifier, let indices = bySubjectKeyIdentifier[aki] {
            return indices.map { anchors[$0] }.filter { $0.certificate.subject == issuer }
        }
        return (bySubject[issuer] ?? []).map { anchors[$0] }
    }
}
