import Encodings
import MDoc
import Longfellow
import StrictJSON
import ZKMdoc

extension DCQLQuery {
    /// verifierd's limits on a caller's query, beside the counts the caller passes (credentials, claims per
    /// credential). Every array has one; a query over any is refused naming the member.
    public enum Limits {
        /// Entries of a credential query's `claim_sets`.
        public static let maximumClaimSets = 16
        /// Entries of `credential_sets`.
        public static let maximumCredentialSets = 16
        /// `options` of one `credential_sets` entry.
        public static let maximumCredentialSetOptions = 16
        /// Bytes of a credential or claim `id`.
        public static let maximumIdentifierBytes = 64
        /// Bytes of the whole query as it is sent on (unknown members included: they go into the request unchanged).
        public static let maximumQueryBytes = 64 << 10
    }

    /// Why a caller's query was refused, naming the member (`credentials[0].claims[2].path`).
    public struct Refusal: Error, Sendable {
        /// What refused it, where that is not a malformed query.
        public enum Kind: Sendable, Equatable {
            /// `trusted_authorities` of a type verifierd cannot honour (`etsi_tl`, `openid_federation`, …).
            case trustedAuthorityNotSupported
        }

        public let detail: String
        public var kind: Kind?

        public init(detail: String, kind: Kind? = nil) {
            self.detail = detail
            self.kind = kind
        }
    }

    /// Entries of `trusted_authorities`, and values of one entry.
    public static let maximumTrustedAuthorities = 16

    /// A credential query's `trusted_authorities` (6.1.1): the AuthorityKeyIdentifier keyIdentifiers of its `aki`
    /// entries (6.1.1.1: base64url of the key identifier bytes, 1 to 64 of them), which verifierd enforces on the
    /// answer; nil when absent. A type verifierd cannot enforce is refused rather than sent for the wallet alone to
    /// honour (14.9).
    static func trustedAuthorities(_ value: RawJSON?, path: String) throws(Refusal) -> [[UInt8]]? {
        guard let value else { return nil }
        guard case .array(let entries) = value, !entries.isEmpty, entries.count <= maximumTrustedAuthorities else {
            throw Refusal(detail: "\(path).trusted_authorities is not an array of 1 to \(maximumTrustedAuthorities) entries")
        }
        var identifiers: [[UInt8]] = []
        for (index, entry) in entries.enumerated() {
            let at = "\(path).trusted_authorities[\(index)]"
            guard case .object(let members) = entry, case .string(let type)? = members["type"], !type.isEmpty,
                  case .array(let values)? = members["values"], !values.isEmpty, values.count <= maximumTrustedAuthorities
            else { throw Refusal(detail: "\(at) is not {\"type\": string, \"values\": [1 to \(maximumTrustedAuthorities) strings]}") }
            guard type == "aki" else {
                throw Refusal(detail: "\(at).type \"\(type.prefix(64))\" is not supported: verifierd enforces only \"aki\" "
                              + "(the issuer's key identifiers), and sends nothing it would not enforce", kind: .trustedAuthorityNotSupported)
            }
            for (valueIndex, item) in values.enumerated() {
                guard case .string(let text) = item, text.utf8.count <= 88, let bytes = Base64URL.decodeBytes(text),
                      (1...64).contains(bytes.count)
                else { throw Refusal(detail: "\(at).values[\(valueIndex)] is not the base64url of a key identifier of 1 to 64 bytes") }
                if !identifiers.contains(bytes) { identifiers.append(bytes) }
            }
        }
        return identifiers
    }

    /// A credential query's `claim_sets` (6.1): 1 to ``Limits/maximumClaimSets`` options, each a non-empty list of the
    /// query's claim ids, each once; empty when absent.
    static func claimSets(_ value: RawJSON?, claimIds: Set<String>, path: String) throws(Refusal) -> [[String]] {
        guard let value else { return [] }
        guard case .array(let options) = value, !options.isEmpty, options.count <= Limits.maximumClaimSets else {
            throw Refusal(detail: "\(path).claim_sets is not an array of 1 to \(Limits.maximumClaimSets) entries")
        }
        var sets: [[String]] = []
        for (optionIndex, option) in options.enumerated() {
            let ids: [String]
            if case .array(let list) = option { ids = list.compactMap { if case .string(let id) = $0 { id } else { nil } } } else { ids = [] }
            guard case .array(let list) = option, !list.isEmpty, ids.count == list.count, Set(ids).count == ids.count,
                  ids.allSatisfy(claimIds.contains)
            else { throw Refusal(detail: "\(path).claim_sets[\(optionIndex)] is not a non-empty list of the query's claim ids, each once") }
            sets.append(ids)
        }
        return sets
    }

    /// Reads a caller's query for mdocs and SD-JWT VCs, checking required members, types and verifierd's limits; unknown members
    /// are ignored, as section 6 requires. Every claim any `claim_sets` entry names counts as requested; ids named
    /// by `claim_sets` and `credential_sets` must exist.
    public init(parsing raw: RawJSON, maximumCredentials: Int = 4, maximumClaims: Int = 256) throws(Refusal) {
        guard case .object(let top) = raw else { throw Refusal(detail: "dcql_query is not an object") }
        let size = JSON(raw).serialized().count
        guard size <= Limits.maximumQueryBytes else {
            throw Refusal(detail: "dcql_query is \(size) bytes as sent on; at most \(Limits.maximumQueryBytes)")
        }
        guard case .array(let list)? = top["credentials"], !list.isEmpty else {
            throw Refusal(detail: "dcql_query.credentials is not a non-empty array")
        }
        guard list.count <= maximumCredentials else {
            throw Refusal(detail: "dcql_query.credentials has \(list.count) queries; at most \(maximumCredentials)")
        }
        var credentials: [Credential] = []
        for (index, item) in list.enumerated() {
            let path = "dcql_query.credentials[\(index)]"
            guard case .object(let query) = item else { throw Refusal(detail: "\(path) is not an object") }
            guard case .string(let id)? = query["id"], !id.isEmpty, id.utf8.count <= 64,
                  id.unicodeScalars.allSatisfy(Self.isIdentifierScalar)
            else { throw Refusal(detail: "\(path).id is not 1 to 64 of A-Z a-z 0-9 _ -") }
            guard !credentials.contains(where: { $0.id == id }) else { throw Refusal(detail: "\(path).id \"\(id)\" is used twice") }
            let authorities = try Self.trustedAuthorities(query["trusted_authorities"], path: path)
            var multiple = false
            if let value = query["multiple"] {
                guard case .bool(let flag) = value else { throw Refusal(detail: "\(path).multiple is not a boolean") }
                multiple = flag
            }
            if case .string(Self.sdJwtVcFormat)? = query["format"] {
                credentials.append(Credential(id: id, sdJwtVc: try Self.sdJwtVcQuery(query, path: path, maximumClaims: maximumClaims,
                                                                                     trustedAuthorities: authorities),
                                              multiple: multiple))
                continue
            }
            let zeroKnowledge: Bool
            switch query["format"] {
            case .string(Self.mdocFormat)?: zeroKnowledge = false
            case .string(Self.mdocZKFormat)?: zeroKnowledge = true
            default:
                throw Refusal(detail: "\(path).format is not \"mso_mdoc\", \"mso_mdoc_zk\" or \"dc+sd-jwt\" (the formats verifierd verifies)")
            }
            guard case .object(let meta)? = query["meta"], case .string(let docType)? = meta["doctype_value"], !docType.isEmpty else {
                throw Refusal(detail: "\(path).meta.doctype_value is not a non-empty string")
            }
            let zkRequest = zeroKnowledge ? try Self.zkSystemTypes(meta, path: "\(path).meta") : nil
            guard case .array(let claims)? = query["claims"], !claims.isEmpty, claims.count <= maximumClaims else {
                throw Refusal(detail: "\(path).claims is not an array of 1 to \(maximumClaims) claims (verifierd asks for named elements)")
            }
            var claimIds = Set<String>()
            var elements: [(nameSpace: String, element: RequestedItems.Element)] = []
            for (claimIndex, claim) in claims.enumerated() {
                let claimPath = "\(path).claims[\(claimIndex)]"
                guard case .object(let members) = claim else { throw Refusal(detail: "\(claimPath) is not an object") }
                guard case .array(let parts)? = members["path"], parts.count == 2,
                      case .string(let nameSpace) = parts[0], case .string(let identifier) = parts[1],
                      !nameSpace.isEmpty, !identifier.isEmpty
                else { throw Refusal(detail: "\(claimPath).path is not [namespace, element] of two non-empty strings") }
                if members["values"] != nil {
                    throw Refusal(detail: "\(claimPath).values is not supported: verifierd does not compare claim values")
                }
                var retain = false
                if let value = members["intent_to_retain"] {
                    guard case .bool(let flag) = value else { throw Refusal(detail: "\(claimPath).intent_to_retain is not a boolean") }
                    retain = flag
                }
                if let value = members["id"] {
                    guard case .string(let claimId) = value, !claimId.isEmpty, claimId.utf8.count <= Limits.maximumIdentifierBytes,
                          claimId.unicodeScalars.allSatisfy(Self.isIdentifierScalar), claimIds.insert(claimId).inserted
                    else { throw Refusal(detail: "\(claimPath).id is not a unique id of 1 to \(Limits.maximumIdentifierBytes) of A-Z a-z 0-9 _ -") }
                }
                guard !elements.contains(where: { $0.nameSpace == nameSpace && $0.element.identifier == identifier }) else {
                    throw Refusal(detail: "\(claimPath) asks for \(nameSpace)/\(identifier) a second time")
                }
                elements.append((nameSpace, RequestedItems.Element(identifier, intentToRetain: retain)))
            }
            // Checked only: for an mdoc every claim any option names counts as requested.
            _ = try Self.claimSets(query["claim_sets"], claimIds: claimIds, path: path)
            var nameSpaces: [(nameSpace: String, elements: [RequestedItems.Element])] = []
            for (nameSpace, element) in elements {
                if let position = nameSpaces.firstIndex(where: { $0.nameSpace == nameSpace }) {
                    nameSpaces[position].elements.append(element)
                } else {
                    nameSpaces.append((nameSpace, [element]))
                }
            }
            if let zkRequest {
                guard zkRequest.systems.allSatisfy({ $0.spec.attributeCount == elements.count }) else {
                    throw Refusal(detail: "\(path).meta.zk_system_type names a system that does not prove \(elements.count) element(s)")
                }
                guard let fixed = ZKNameSpaces.nameSpace(for: docType), elements.allSatisfy({ $0.nameSpace == fixed }) else {
                    throw Refusal(detail: "\(path): a zero-knowledge proof of \(docType.prefix(80)) discloses elements of the namespace "
                                  + "its docType fixes only (a proof does not bind the namespace)")
                }
            }
            credentials.append(Credential(id: id, document: RequestedItems.Document(docType: docType, nameSpaces: nameSpaces,
                                                                                    zeroKnowledge: zkRequest,
                                                                                    issuerKeyIdentifiers: authorities),
                                          multiple: multiple))
        }
        var credentialSets: [CredentialSet] = []
        if let sets = top["credential_sets"] {
            guard case .array(let entries) = sets, !entries.isEmpty, entries.count <= Limits.maximumCredentialSets else {
                throw Refusal(detail: "dcql_query.credential_sets is not an array of 1 to \(Limits.maximumCredentialSets) entries")
            }
            for (index, entry) in entries.enumerated() {
                guard case .object(let set) = entry, case .array(let options)? = set["options"], !options.isEmpty,
                      options.count <= Limits.maximumCredentialSetOptions
                else {
                    throw Refusal(detail: "dcql_query.credential_sets[\(index)].options is not an array of 1 to \(Limits.maximumCredentialSetOptions) options")
                }
                for (optionIndex, option) in options.enumerated() {
                    guard case .array(let ids) = option, !ids.isEmpty, ids.count <= credentials.count,
                          Set(ids.compactMap { if case .string(let text) = $0 { text } else { nil } }).count == ids.count,
                          ids.allSatisfy({ id in
                              if case .string(let text) = id { return credentials.contains { $0.id == text } }
                              return false
                          })
                    else {
                        throw Refusal(detail: "dcql_query.credential_sets[\(index)].options[\(optionIndex)] is not a non-empty list of the query's credential ids, each once")
                    }
                }
                var required = true
                if let value = set["required"] {
                    guard case .bool(let flag) = value else {
                        throw Refusal(detail: "dcql_query.credential_sets[\(index)].required is not a boolean")
                    }
                    required = flag
                }
                let ids = options.map { option -> [String] in
                    guard case .array(let items) = option else { return [] }
                    return items.compactMap { if case .string(let text) = $0 { return text } else { return nil } }
                }
                credentialSets.append(CredentialSet(options: ids, required: required))
            }
        }
        self.init(credentials: credentials, credentialSets: credentialSets, original: raw)
    }

    /// `meta.zk_system_type` of an `mso_mdoc_zk` credential query: 1 to 8 systems, each `{"id"?, "system":
    /// "longfellow-libzk-v1", "circuit_hash", "num_attributes", "version", "block_enc_hash", "block_enc_sig"}` naming a
    /// published system of version 6 or 7 with exactly its parameters. `verifier_message` may be there (a string of at
    /// most 1 KiB; verifierd does not use it); nothing else.
    static func zkSystemTypes(_ meta: [String: RawJSON], path: String) throws(Refusal) -> ZKRequest {
        if let unknown = Set(meta.keys).subtracting(["doctype_value", "zk_system_type", "verifier_message"]).sorted().first {
            throw Refusal(detail: "\(path).\(unknown) is not a member of an mso_mdoc_zk query's meta")
        }
        if let message = meta["verifier_message"] {
            guard case .string(let text) = message, text.utf8.count <= 1024 else {
                throw Refusal(detail: "\(path).verifier_message is not a string of at most 1024 bytes")
            }
        }
        guard case .array(let entries)? = meta["zk_system_type"], (1...8).contains(entries.count) else {
            throw Refusal(detail: "\(path).zk_system_type is not an array of 1 to 8 systems")
        }
        var systems: [ZKRequest.System] = []
        for (index, entry) in entries.enumerated() {
            let at = "\(path).zk_system_type[\(index)]"
            guard case .object(let members) = entry else { throw Refusal(detail: "\(at) is not an object") }
            let known: Set<String> = ["id", "system", "circuit_hash", "num_attributes", "version", "block_enc_hash", "block_enc_sig"]
            if let unknown = Set(members.keys).subtracting(known).sorted().first {
                throw Refusal(detail: "\(at).\(unknown) is not a member of a Longfellow system")
            }
            guard case .string(ZKRequest.systemName)? = members["system"] else {
                throw Refusal(detail: "\(at).system is not \"\(ZKRequest.systemName)\"")
            }
            guard case .string(let hash)? = members["circuit_hash"], let spec = LongfellowSystemSpec.published(circuitHash: hash) else {
                throw Refusal(detail: "\(at).circuit_hash is not the circuit of a published version 6 or 7 system")
            }
            func number(_ name: String) -> Int64? { if case .integer(let value)? = members[name] { value } else { nil } }
            guard number("num_attributes") == Int64(spec.attributeCount), number("version") == Int64(spec.version),
                  number("block_enc_hash") == Int64(spec.blockEncodedHash), number("block_enc_sig") == Int64(spec.blockEncodedSignature)
            else { throw Refusal(detail: "\(at) does not give the published parameters of circuit \(hash.prefix(16))…") }
            var id = spec.circuitHash
            if let value = members["id"] {
                guard case .string(let text) = value, !text.isEmpty, text.utf8.count <= 256 else {
                    throw Refusal(detail: "\(at).id is not a string of 1 to 256 bytes")
                }
                id = text
            }
            guard !systems.contains(where: { $0.spec == spec }) else { throw Refusal(detail: "\(at) names a system twice") }
            systems.append(ZKRequest.System(id: id, spec: spec))
        }
        return ZKRequest(systems: systems, required: true)
    }
}
