import Encodings
import Foundation
import SDJWTVC
import StrictJSON

extension DCQLQuery {
    /// Limits on a `dc+sd-jwt` credential query beside the shared ones.
    public enum SDJWTVCLimits {
        /// Entries of `meta.vct_values`, and bytes of each.
        public static let maximumTypes = 16
        public static let maximumTypeBytes = 256
        /// Elements of one claims path, and bytes of a name in it.
        public static let maximumPathElements = 16
        public static let maximumNameBytes = 256
        /// Entries of one claim's `values`.
        public static let maximumValues = 16
    }

    /// Reads a `dc+sd-jwt` credential query (6.1, 6.3, 7, B.3.5): `meta.vct_values` (required, non-empty), `claims`
    /// (optional: none means no selectively disclosable claim is requested) with paths of names, non-negative indices
    /// and `null` starting with a name, `values` of strings, integers and booleans, `claim_sets`, and
    /// `require_cryptographic_holder_binding` (default true). Unknown members are ignored.
    static func sdJwtVcQuery(_ query: [String: RawJSON], path: String, maximumClaims: Int,
                             trustedAuthorities: [[UInt8]]? = nil) throws(Refusal) -> SDJWTVCQuery {
        guard case .object(let meta)? = query["meta"], case .array(let types)? = meta["vct_values"], !types.isEmpty,
              types.count <= SDJWTVCLimits.maximumTypes
        else { throw Refusal(detail: "\(path).meta.vct_values is not an array of 1 to \(SDJWTVCLimits.maximumTypes) strings") }
        var vctValues: [String] = []
        for type in types {
            guard case .string(let vct) = type, !vct.isEmpty, vct.utf8.count <= SDJWTVCLimits.maximumTypeBytes else {
                throw Refusal(detail: "\(path).meta.vct_values holds a value that is not a string of 1 to \(SDJWTVCLimits.maximumTypeBytes) bytes")
            }
            vctValues.append(vct)
        }
        var claims: [SDJWTVCQuery.Claim] = []
        var claimIds = Set<String>()
        if let value = query["claims"] {
            guard case .array(let items) = value, !items.isEmpty, items.count <= maximumClaims else {
                throw Refusal(detail: "\(path).claims is not an array of 1 to \(maximumClaims) claims")
            }
            for (index, item) in items.enumerated() {
                let claimPath = "\(path).claims[\(index)]"
                guard case .object(let members) = item else { throw Refusal(detail: "\(claimPath) is not an object") }
                let elements = try claimsPath(members["path"], at: claimPath)
                guard !claims.contains(where: { $0.path == elements }) else { throw Refusal(detail: "\(claimPath) asks for the same path a second time") }
                var claimId: String?
                if let value = members["id"] {
                    guard case .string(let text) = value, !text.isEmpty, text.utf8.count <= Limits.maximumIdentifierBytes,
                          text.unicodeScalars.allSatisfy(Self.isIdentifierScalar), claimIds.insert(text).inserted
                    else { throw Refusal(detail: "\(claimPath).id is not a unique id of 1 to \(Limits.maximumIdentifierBytes) of A-Z a-z 0-9 _ -") }
                    claimId = text
                }
                var values: [JSON]?
                if let value = members["values"] {
                    guard case .array(let list) = value, !list.isEmpty, list.count <= SDJWTVCLimits.maximumValues else {
                        throw Refusal(detail: "\(claimPath).values is not an array of 1 to \(SDJWTVCLimits.maximumValues) values")
                    }
                    values = try list.map { entry throws(Refusal) -> JSON in
                        switch entry {
                        case .string(let text) where text.utf8.count <= SDJWTVCLimits.maximumNameBytes: return .string(text)
                        case .integer(let number): return .int(number)
                        case .bool(let flag): return .bool(flag)
                        default: throw Refusal(detail: "\(claimPath).values holds a value that is not a string, an integer or a boolean")
                        }
                    }
                }
                claims.append(SDJWTVCQuery.Claim(id: claimId, path: elements, values: values))
            }
        }
        let claimSets = try claimSets(query["claim_sets"], claimIds: claimIds, path: path)
        var binding = true
        if let value = query["require_cryptographic_holder_binding"] {
            guard case .bool(let flag) = value else { throw Refusal(detail: "\(path).require_cryptographic_holder_binding is not a boolean") }
            binding = flag
        }
        var authorities = trustedAuthorities
        if authorities == nil { authorities = try Self.trustedAuthorities(query["trusted_authorities"], path: path) }
        return SDJWTVCQuery(vctValues: vctValues, claims: claims, claimSets: claimSets, requireHolderBinding: binding,
                            trustedAuthorities: authorities)
    }

    /// A claims path pointer (7): 1 to ``SDJWTVCLimits/maximumPathElements`` elements, the first a name.
    static func claimsPath(_ value: RawJSON?, at claimPath: String) throws(Refusal) -> [SDJWTVCQuery.PathElement] {
        guard case .array(let parts)? = value, !parts.isEmpty, parts.count <= SDJWTVCLimits.maximumPathElements else {
            throw Refusal(detail: "\(claimPath).path is not an array of 1 to \(SDJWTVCLimits.maximumPathElements) elements")
        }
        var elements: [SDJWTVCQuery.PathElement] = []
        for part in parts {
            switch part {
            case .string(let name) where !name.isEmpty && name.utf8.count <= SDJWTVCLimits.maximumNameBytes: elements.append(.name(name))
            case .integer(let index) where index >= 0 && index <= 1_000_000: elements.append(.index(Int(index)))
            case .null: elements.append(.all)
            default:
                throw Refusal(detail: "\(claimPath).path holds an element that is not a name, a non-negative index or null")
            }
        }
        guard case .name = elements[0] else { throw Refusal(detail: "\(claimPath).path does not start with a claim name") }
        return elements
    }
}

extension SDJWTVCQuery {
    /// The credential query's own members as JSON (`meta`, `claims`, `claim_sets`,
    /// `require_cryptographic_holder_binding`): what a session stores and reads back with ``DCQLQuery/sdJwtVcQuery``.
    var storedJSON: JSON {
        .object([
            ("meta", .object([("vct_values", .array(vctValues.map { .string($0) }))])),
            ("claims", claims.isEmpty ? nil : .array(claims.map { claim in
                .object([
                    ("id", claim.id.map { .string($0) }),
                    ("path", .array(claim.path.map { element -> JSON in
                        switch element {
                        case .name(let name): return .string(name)
                        case .index(let index): return .int(Int64(index))
                        case .all: return .null
                        }
                    })),
                    ("values", claim.values.map { .array($0) }),
                ])
            })),
            ("claim_sets", claimSets.isEmpty ? nil : .array(claimSets.map { .array($0.map { .string($0) }) })),
            ("require_cryptographic_holder_binding", .bool(requireHolderBinding)),
            ("trusted_authorities", trustedAuthorities.map(DCQLQuery.trustedAuthoritiesJSON)),
        ])
    }

    /// Reads ``storedJSON`` back; nil when it is not one.
    init?(storedJSON bytes: [UInt8]) {
        guard JSONSyntaxScan.check(bytes) == nil, case .object(let members)? = try? JSONDecoder().decode(RawJSON.self, from: Data(bytes)),
              let query = try? DCQLQuery.sdJwtVcQuery(members, path: "stored", maximumClaims: 1_024)
        else { return nil }
        self = query
    }
}

extension DCQLQuery {
    /// `trusted_authorities` for AuthorityKeyIdentifier keyIdentifiers: one `aki` entry.
    static func trustedAuthoritiesJSON(_ identifiers: [[UInt8]]) -> JSON {
        .array([.object([("type", .string("aki")), ("values", .array(identifiers.map { .string(Base64URL.encode($0)) }))])])
    }
}
