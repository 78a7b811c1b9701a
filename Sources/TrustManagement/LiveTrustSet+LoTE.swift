import Foundation
import TrustLists
import TrustStore

extension LiveTrustSet {
    /// The anchors a verified list gives this set: each certificate of a service that grants trust, with the
    /// service's purpose, scoped to `docTypes`, one entry per certificate (purposes merged). Register services give
    /// none (they name registers, not issuers).
    public static func anchors(of verified: VerifiedLoTE, docTypes: [String]) -> [TrustAnchor] {
        var anchors: [TrustAnchor] = []
        for grant in verified.grants where grant.grantsTrust {
            let purpose: TrustAnchorMetadata.Purpose
            switch grant.purpose {
            case .issuance: purpose = .issuance
            case .revocation: purpose = .revocation
            case .register: continue
            }
            let metadata = TrustAnchorMetadata(source: TrustAnchorMetadata.loteSource(verified.source), docTypes: docTypes,
                                               issuingAuthority: grant.entityName, issuingCountry: grant.country,
                                               purposes: [purpose])
            guard let anchor = try? TrustAnchor(derBytes: grant.der, metadata: metadata) else { continue }
            anchors.append(anchor)
        }
        return TrustSet(anchors: anchors).normalized().anchors
    }

    /// Verifies nothing (the caller did), but checks the list against the one in force for its source (the sequence
    /// number never goes back), then replaces all anchors of that source in one atomic step, leaving other sources
    /// and manual anchors alone. A dry run computes the same answer and writes nothing.
    public func importLoTE(_ verified: VerifiedLoTE, docTypes: [String], setName: String, dryRun: Bool, now: Date,
                           actor: String, requestID: String? = nil) async throws(TrustChangeError) -> LoTEImportResult
    {
        let source = TrustAnchorMetadata.loteSource(verified.source)
        let proposed = Self.anchors(of: verified, docTypes: docTypes)
        let record = TrustListRecord(issueID: verified.sequenceNumber, provider: verified.operatorName, date: verified.issued,
                                     nextUpdate: verified.nextUpdate, importedAt: now, anchorCount: proposed.count,
                                     sha256: verified.sha256)
        if dryRun {
            let stored: TrustSet? = if let shared { try? await shared.latest().set } else { try? directory.load() }
            let set = stored ?? snapshot.set
            try Self.checkOrder(verified, against: set.lists[source])
            return LoTEImportResult(verified: verified, trustSet: setName,
                                    diff: TrustSetDiff(current: set.anchors(from: source), proposed: proposed),
                                    dryRun: true, version: snapshot.version)
        }
        let changed = try await change(actor: actor, action: "lote-import:\(verified.source)", requestID: requestID,
                                       fingerprints: proposed.map(\.sha256)) { existing throws(TrustChangeError) in
            try Self.checkOrder(verified, against: existing.lists[source])
            var updated = existing
            updated.anchors = existing.anchors.filter { $0.metadata.source != source } + proposed
            updated.lists[source] = record
            return updated
        }
        return LoTEImportResult(verified: verified, trustSet: setName,
                                diff: TrustSetDiff(current: changed.previous.anchors(from: source), proposed: proposed),
                                dryRun: false, version: changed.snapshot.version)
    }

    /// Withdraws every anchor of a list source and its record (a list past its `NextUpdate` and grace under
    /// `withdraw`). Nothing happens when the source has neither.
    @discardableResult
    public func withdrawList(source: String, actor: String) async throws(TrustChangeError) -> Bool {
        let inForce = snapshot
        guard inForce.lists[source] != nil || inForce.anchors.contains(where: { $0.metadata.source == source }) else {
            return false
        }
        _ = try await change(actor: actor, action: "lote-withdraw:\(source)", requestID: nil, fingerprints: []) { existing throws(TrustChangeError) in
            var updated = existing
            updated.anchors = existing.anchors.filter { $0.metadata.source != source }
            updated.lists[source] = nil
            return updated
        }
        return true
    }

    /// The succession rule of ``VerifiedLoTE/checkSuccession(afterSequence:sha256:)`` as a trust change's error.
    static func checkOrder(_ verified: VerifiedLoTE, against inForce: TrustListRecord?) throws(TrustChangeError) {
        do throws(LoTEError) {
            try verified.checkSuccession(afterSequence: inForce?.issueID, sha256: inForce?.sha256)
        } catch {
            throw .lote(error)
        }
    }
}
