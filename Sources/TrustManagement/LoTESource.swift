import Foundation
import TrustLists
import TrustStore
import X509

/// A list of trusted entities (ETSI TS 119 602) fetched on a schedule (`trust.loteSources`): where it is, which list
/// it is, who may sign it, and which trust sets its services' certificates join, scoped how.
public struct LoTESource: Sendable {
    /// What a list past its `NextUpdate` (and the grace) does to the trust it granted.
    public enum StalePolicy: String, Sendable, CaseIterable {
        /// Its anchors are withdrawn until a fresh list is imported: nothing verifies on a list nobody vouches for.
        case withdraw
        /// Its anchors stay; readiness reports the list as degraded.
        case warn
    }

    /// Where a kind's certificates go: the IACA set and the SD-JWT VC issuer set, each with its scope (docTypes,
    /// `vct` values; nil: that set takes nothing from the list), or the providers of one role (``ListedProviderAnchors``).
    public struct Scope: Sendable, Equatable {
        public var iacaDocTypes: [String]?
        public var sdJwtVcTypes: [String]?
        /// The role of the providers the list's Issuance services are (WRPRC, WRPAC lists); nil for issuer lists.
        public var providers: ListedProviderAnchors.Role?

        public init(iacaDocTypes: [String]?, sdJwtVcTypes: [String]?, providers: ListedProviderAnchors.Role? = nil) {
            self.iacaDocTypes = iacaDocTypes
            self.sdJwtVcTypes = sdJwtVcTypes
            self.providers = providers
        }

        /// The EU scope of a kind: the Commission's mDL providers vouch for mDLs only; PID providers for PIDs in
        /// both formats (ISO mdoc `eu.europa.ec.eudi.pid.1`, SD-JWT VC `urn:eudi:pid:1`); WRPRC providers (Annex G)
        /// for relying parties' registration certificates, WRPAC providers (Annex F) for their access certificates.
        /// Other kinds anchor nothing verifierd checks (nil).
        public static func `default`(for kind: LoTEKind) -> Scope? {
            switch kind {
            case .mdl: Scope(iacaDocTypes: ["org.iso.18013.5.1.mDL"], sdJwtVcTypes: nil)
            case .pid: Scope(iacaDocTypes: ["eu.europa.ec.eudi.pid.1"], sdJwtVcTypes: ["urn:eudi:pid:1"])
            case .wrprc: Scope(iacaDocTypes: nil, sdJwtVcTypes: nil, providers: .registrationCertificates)
            case .wrpac: Scope(iacaDocTypes: nil, sdJwtVcTypes: nil, providers: .accessCertificates)
            case .wallet, .pubeaa, .registrars: nil
            }
        }
    }

    public var name: String
    public var url: URL
    public var kind: LoTEKind
    /// The certificates the list's signer must be, or chain to.
    public var signerAnchors: [Certificate]
    public var refreshHours: Double
    public var scope: Scope
    /// How long after `NextUpdate` the list in force still counts as current.
    public var staleGraceSeconds: TimeInterval
    public var onStale: StalePolicy

    public init(name: String, url: URL, kind: LoTEKind, signerAnchors: [Certificate], refreshHours: Double, scope: Scope,
                staleGraceSeconds: TimeInterval, onStale: StalePolicy) {
        self.name = name
        self.url = url
        self.kind = kind
        self.signerAnchors = signerAnchors
        self.refreshHours = refreshHours
        self.scope = scope
        self.staleGraceSeconds = staleGraceSeconds
        self.onStale = onStale
    }

    /// The source of its anchors and the key of its record in a trust set (`lote:<name>`).
    public var trustSource: String { TrustAnchorMetadata.loteSource(name) }

    /// As the refresher schedules it.
    public var scheduled: VICALSource { VICALSource(name: trustSource, url: url, refreshHours: refreshHours) }
}
