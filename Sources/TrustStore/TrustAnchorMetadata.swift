/// Where a trusted IACA comes from and what it may vouch for.
///
/// An anchor from a VICAL carries the list's docTypes and issuer details; a manual anchor may be scoped the same
/// way. `docTypes == nil` means any docType.
public struct TrustAnchorMetadata: Sendable, Hashable, Codable {
    /// The source of anchors added by hand (admin API, CLI, files placed in the directory).
    public static let manualSource = "manual"
    /// Prefix of the source of anchors imported from a VICAL (`vical:aamva`).
    public static let vicalSourcePrefix = "vical:"
    /// Prefix of the source of anchors imported from an ETSI TS 119 602 list of trusted entities (`lote:eu-pid`).
    public static let loteSourcePrefix = "lote:"

    /// What an anchor may be the root of: credentials (document signers, SD-JWT VC issuers) or revocation
    /// information (status-list signers). A list of trusted entities grants each service's certificates one of them
    /// (its service type); anchors from anywhere else grant both.
    public enum Purpose: String, Sendable, Hashable, Codable, CaseIterable {
        case issuance
        case revocation
    }

    /// `manual`, `vical:<name>` or `lote:<name>`.
    public var source: String
    /// The docTypes this anchor may vouch for (sorted, unique); nil for any.
    public var docTypes: [String]?
    public var issuingAuthority: String?
    public var issuingCountry: String?
    public var stateOrProvince: String?
    /// The `vicalIssueID` of the list the anchor came from.
    public var vicalIssueID: UInt64?
    /// What the anchor may be the root of (sorted, unique); nil for both. Only lists of trusted entities narrow it.
    public var purposes: [Purpose]?

    public init(source: String = Self.manualSource, docTypes: [String]? = nil, issuingAuthority: String? = nil,
                issuingCountry: String? = nil, stateOrProvince: String? = nil, vicalIssueID: UInt64? = nil,
                purposes: [Purpose]? = nil) {
        self.source = source
        self.docTypes = docTypes.map { Array(Set($0)).sorted() }
        self.issuingAuthority = issuingAuthority
        self.issuingCountry = issuingCountry
        self.stateOrProvince = stateOrProvince
        self.vicalIssueID = vicalIssueID
        self.purposes = purposes.map { Array(Set($0)).sorted { $0.rawValue < $1.rawValue } }
    }

    /// The source name of a list of trusted entities (`eu-pid` -> `lote:eu-pid`).
    public static func loteSource(_ name: String) -> String { loteSourcePrefix + name }

    /// Whether an anchor with this metadata may be the root of a chain for `purpose`.
    public func permits(_ purpose: Purpose) -> Bool {
        purposes?.contains(purpose) ?? true
    }

    /// An unscoped manual anchor.
    public static let manual = TrustAnchorMetadata()

    /// The source name of a VICAL source (`aamva` -> `vical:aamva`).
    public static func vicalSource(_ name: String) -> String { vicalSourcePrefix + name }

    /// Whether an anchor with this metadata may vouch for a document of `docType`.
    public func authorizes(docType: String) -> Bool {
        guard let docTypes else { return true }
        return docTypes.contains(docType)
    }

    /// The scope of two entries for the same certificate: the union of their docTypes (any, if either allows any).
    public func mergingScope(with other: TrustAnchorMetadata) -> TrustAnchorMetadata {
        var merged = self
        if let mine = docTypes, let theirs = other.docTypes {
            merged.docTypes = Array(Set(mine).union(theirs)).sorted()
        } else {
            merged.docTypes = nil
        }
        if let mine = purposes, let theirs = other.purposes {
            merged.purposes = Array(Set(mine).union(theirs)).sorted { $0.rawValue < $1.rawValue }
        } else {
            merged.purposes = nil
        }
        return merged
    }
}
