import Foundation
import TrustStore

/// A VICAL whose signature, signer chain and dates were checked: its entries as trust anchors of one source.
public struct VerifiedVICAL: Sendable {
    /// The source name (`aamva`).
    public let source: String
    public let vical: VICAL
    /// SHA-256 of the VICAL bytes, lowercase hex.
    public let sha256: String
    /// The signer certificate's subject.
    public let signer: String
    /// One anchor per distinct certificate, scoped to the docTypes of its entries (merged when a certificate is
    /// listed twice), with the entry's issuer details.
    public let anchors: [TrustAnchor]
    /// Entries not taken, by position, with the reason (unreadable entry, a certificate that is not a usable
    /// IACA, a key this verifier cannot use).
    public let skipped: [(index: Int, reason: String)]

    /// `certificateInfos` entries in the list.
    public var entryCount: Int { vical.entries.count + vical.malformedEntries.count }

    /// The record kept with the set in force.
    public func record(importedAt: Date) -> TrustListRecord {
        TrustListRecord(issueID: vical.issueID, provider: vical.provider, date: vical.date, nextUpdate: vical.nextUpdate,
                        importedAt: importedAt, anchorCount: anchors.count, sha256: sha256)
    }
}
