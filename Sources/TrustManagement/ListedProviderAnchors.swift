import Foundation
import Synchronization
import TrustLists
import TrustStore
import X509

/// The certificates of providers that lists of trusted entities in force vouch for, for one role: providers of
/// registration certificates (ETSI TS 119 602 Annex G, WRPRC providers lists: anchors a relying party's registration
/// certificate may chain to, beside the configured registrar anchors) or of access certificates (Annex F, WRPAC
/// providers lists: what the service's own request-signing certificate must chain to for EU wallets to accept it).
/// Held in memory by each process (every replica fetches its own list: there is no trust set to share for them);
/// the sequence rule and the withdrawal of a stale list apply as for any list.
public final class ListedProviderAnchors: Sendable {
    /// What the providers of a list issue.
    public enum Role: String, Sendable, CaseIterable {
        /// Relying parties' registration certificates (WRPRC).
        case registrationCertificates
        /// Relying parties' access certificates (WRPAC).
        case accessCertificates

        /// The name of the set in import results: `registrationProviders`, `accessCertificateProviders`.
        public var setName: String {
            switch self {
            case .registrationCertificates: "registrationProviders"
            case .accessCertificates: "accessCertificateProviders"
            }
        }
    }

    /// A list in force: its record and the anchors of its Issuance services that grant trust.
    struct Entry: Sendable {
        let record: TrustListRecord
        let anchors: [TrustAnchor]
    }

    private struct State: Sendable {
        var lists: [String: Entry] = [:]
        var version = 0
    }

    private let state = Mutex(State())
    public let role: Role

    public init(role: Role) {
        self.role = role
    }

    /// Changes every time a list comes, changes or goes: who holds derived state compares it.
    public var version: Int { state.withLock { $0.version } }

    /// Every anchor of every list in force, one per certificate.
    public var certificates: [Certificate] {
        state.withLock { state in
            var seen = Set<String>()
            return state.lists.keys.sorted().flatMap { state.lists[$0]?.anchors ?? [] }
                .filter { seen.insert($0.sha256).inserted }.map(\.certificate)
        }
    }

    /// The record of the list in force for `source` (`lote:<name>`).
    public func record(_ source: String) -> TrustListRecord? {
        state.withLock { $0.lists[source]?.record }
    }

    /// The anchors a verified list gives: each certificate of an Issuance service that grants trust (a Revocation
    /// service signs status lists or CRLs of the certificates, never the certificates; a certificate listed under
    /// both is an Issuance one too).
    public static func anchors(of verified: VerifiedLoTE) -> [TrustAnchor] {
        LiveTrustSet.anchors(of: verified, docTypes: []).filter { $0.metadata.permits(.issuance) }
    }

    /// Puts `verified` in force for its source after the sequence rule (a dry run only computes the answer).
    public func importList(_ verified: VerifiedLoTE, dryRun: Bool, now: Date) throws(TrustChangeError) -> LoTEImportResult {
        let source = TrustAnchorMetadata.loteSource(verified.source)
        let proposed = Self.anchors(of: verified)
        let record = TrustListRecord(issueID: verified.sequenceNumber, provider: verified.operatorName, date: verified.issued,
                                     nextUpdate: verified.nextUpdate, importedAt: now, anchorCount: proposed.count,
                                     sha256: verified.sha256)
        let outcome: Result<(previous: [TrustAnchor], version: Int), TrustChangeError> = state.withLock { state in
            let previous = state.lists[source]
            do throws(TrustChangeError) {
                try LiveTrustSet.checkOrder(verified, against: previous?.record)
            } catch {
                return .failure(error)
            }
            if !dryRun {
                state.lists[source] = Entry(record: record, anchors: proposed)
                state.version += 1
            }
            return .success((previous?.anchors ?? [], state.version))
        }
        let (previous, version) = try outcome.get()
        return LoTEImportResult(verified: verified, trustSet: role.setName, diff: TrustSetDiff(current: previous, proposed: proposed),
                                dryRun: dryRun, version: version)
    }

    /// Withdraws the list of `source`; false when none was in force.
    @discardableResult
    public func withdraw(_ source: String) -> Bool {
        state.withLock { state in
            guard state.lists.removeValue(forKey: source) != nil else { return false }
            state.version += 1
            return true
        }
    }
}
