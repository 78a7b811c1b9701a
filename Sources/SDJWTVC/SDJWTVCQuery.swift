import StrictJSON

/// A DCQL credential query for `dc+sd-jwt` (OpenID4VP 1.0 6.1, 6.3, 7, B.3.5), as the verifier enforces it.
public struct SDJWTVCQuery: Sendable, Equatable {
    /// One element of a claims path pointer (7): a member name, an array index, or every element (`null`).
    public enum PathElement: Sendable, Hashable, CustomStringConvertible {
        case name(String)
        case index(Int)
        case all

        public var description: String {
            switch self {
            case .name(let name): return "\"\(name)\""
            case .index(let index): return "\(index)"
            case .all: return "null"
            }
        }
    }

    /// One requested claim.
    public struct Claim: Sendable, Equatable {
        /// Required when `claim_sets` names it.
        public let id: String?
        public let path: [PathElement]
        /// `values`: the claim matches only when a selected value equals one of these (type and value).
        public let values: [JSON]?

        public init(id: String? = nil, path: [PathElement], values: [JSON]? = nil) {
            self.id = id
            self.path = path
            self.values = values
        }

        /// The path as DCQL writes it, for failure details: `["address","locality"]`.
        public var pathText: String { "[" + path.map(\.description).joined(separator: ",") + "]" }
    }

    /// `meta.vct_values` (required, non-empty).
    public let vctValues: [String]
    /// `claims`; empty when the query requests no selectively disclosable claim.
    public let claims: [Claim]
    /// `claim_sets`: options of claim ids; empty when every claim is required.
    public let claimSets: [[String]]
    /// `require_cryptographic_holder_binding` (default true).
    public let requireHolderBinding: Bool
    /// `trusted_authorities` of type `aki`: the AuthorityKeyIdentifier keyIdentifiers one of which a certificate of the
    /// credential's `x5c` must carry; nil when the query names none.
    public let trustedAuthorities: [[UInt8]]?
    /// False only for ``typesOnly(_:)``: the credential types are restricted, the claims are not (every claim is
    /// reported). A DCQL query always restricts its claims (none listed: no disclosure allowed).
    public let restrictsClaims: Bool

    public init(vctValues: [String], claims: [Claim] = [], claimSets: [[String]] = [], requireHolderBinding: Bool = true,
                trustedAuthorities: [[UInt8]]? = nil) {
        self.vctValues = vctValues
        self.claims = claims
        self.claimSets = claimSets
        self.requireHolderBinding = requireHolderBinding
        self.trustedAuthorities = trustedAuthorities
        restrictsClaims = true
    }

    private init(typesOnly vctValues: [String]) {
        self.vctValues = vctValues
        claims = []
        claimSets = []
        requireHolderBinding = true
        trustedAuthorities = nil
        restrictsClaims = false
    }

    /// Accepts only these credential types and reports every claim (the bare route's `vctValues`).
    public static func typesOnly(_ vctValues: [String]) -> SDJWTVCQuery { SDJWTVCQuery(typesOnly: vctValues) }

}
