import MDoc
import SDJWTVC
import StrictJSON
import ZKMdoc

/// The Digital Credentials Query Language query (OpenID4VP 1.0 section 6): one credential query per requested
/// credential, an mdoc (`format: "mso_mdoc"`, `meta.doctype_value`, `claims[].path = [namespace, element]` with
/// `intent_to_retain`) or an SD-JWT VC (`format: "dc+sd-jwt"`, `meta.vct_values`, claims paths into JSON).
public struct DCQLQuery: Sendable, Equatable {
    public struct Credential: Sendable, Equatable {
        /// `[A-Za-z0-9_-]+`, unique in the query.
        public let id: String
        public let document: RequestedItems.Document
        /// Whether several presentations may answer it (`multiple`, default false).
        public let multiple: Bool
        /// The SD-JWT VC query of a `dc+sd-jwt` credential query; nil for `mso_mdoc` (then ``document`` is what it asks).
        public let sdJwtVc: SDJWTVCQuery?

        public init(id: String, document: RequestedItems.Document, multiple: Bool = false) {
            self.id = id
            self.document = document
            self.multiple = multiple
            sdJwtVc = nil
        }

        /// A `dc+sd-jwt` credential query.
        public init(id: String, sdJwtVc: SDJWTVCQuery, multiple: Bool = false) {
            self.id = id
            document = RequestedItems.Document(docType: "", nameSpaces: [])
            self.multiple = multiple
            self.sdJwtVc = sdJwtVc
        }

        /// `mso_mdoc`, `mso_mdoc_zk` (a document that accepts only a zero-knowledge proof) or `dc+sd-jwt`.
        public var format: String {
            if sdJwtVc != nil { return DCQLQuery.sdJwtVcFormat }
            return document.zeroKnowledge?.required == true ? DCQLQuery.mdocZKFormat : DCQLQuery.mdocFormat
        }
    }

    public static let mdocFormat = "mso_mdoc"
    /// Longfellow's proposal for OpenID4VP (google/longfellow-zk docs/protocols.md): an mdoc proven in zero knowledge,
    /// `meta.zk_system_type` listing the accepted systems. OpenID4VP 1.0 defines no ZK format; this is the one
    /// Google Wallet and Multipaz use. Its answer is a DeviceResponse holding one `zkDocuments` entry.
    public static let mdocZKFormat = "mso_mdoc_zk"
    public static let sdJwtVcFormat = "dc+sd-jwt"

    /// A credential set (6.2): options, each a list of credential ids, and whether one option must be answered.
    public struct CredentialSet: Sendable, Equatable {
        public let options: [[String]]
        public let required: Bool

        public init(options: [[String]], required: Bool) {
            self.options = options
            self.required = required
        }
    }

    public let credentials: [Credential]
    /// `credential_sets`; empty when the query has none (then every credential query must be answered).
    public let credentialSets: [CredentialSet]
    /// The query as the caller gave it, sent unchanged (nil when made here from requested documents).
    public let original: RawJSON?

    /// The query for `requested`; each credential id is the docType with other characters as `_`, made unique.
    public init(_ requested: RequestedItems) {
        var used = Set<String>()
        credentials = requested.documents.map { document in
            let base = String(document.docType.unicodeScalars.map { scalar -> Character in
                Self.isIdentifierScalar(scalar) ? Character(scalar) : "_"
            }.prefix(64))
            var id = base.isEmpty ? "document" : base
            var suffix = 2
            while used.contains(id) {
                id = "\(base)_\(suffix)"
                suffix += 1
            }
            used.insert(id)
            return Credential(id: id, document: document)
        }
        credentialSets = []
        original = nil
    }

    public init(credentials: [Credential], credentialSets: [CredentialSet] = [], original: RawJSON? = nil) {
        self.credentials = credentials
        self.credentialSets = credentialSets
        self.original = original
    }

    /// Why the answered ids do not satisfy the query (6.4): without credential sets every credential query must be
    /// answered; with them, every required set needs one option whose ids are all answered. Nil when satisfied.
    public func unmet(answered: Set<String>) -> String? {
        if credentialSets.isEmpty {
            let missing = credentials.map(\.id).filter { !answered.contains($0) }
            return missing.isEmpty ? nil : "no presentation for credential id(s) \(missing.joined(separator: ", "))"
        }
        for (index, set) in credentialSets.enumerated() where set.required {
            if !set.options.contains(where: { $0.allSatisfy(answered.contains) }) {
                return "credential_sets[\(index)] is required and none of its options was answered"
            }
        }
        return nil
    }

    /// Every mdoc the query asks for, in order (its `dc+sd-jwt` credential queries are not documents).
    public var requested: RequestedItems {
        RequestedItems(documents: credentials.filter { $0.sdJwtVc == nil }.map(\.document))
    }

    /// Whether any credential query asks for an SD-JWT VC.
    public var asksForSDJWTVC: Bool { credentials.contains { $0.sdJwtVc != nil } }

    /// The credential query with this id.
    public func credential(_ id: String) -> Credential? {
        credentials.first { $0.id == id }
    }

    static func isIdentifierScalar(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "-"
    }

    /// The query as JSON for the request object: the caller's own, unchanged, or the one made here.
    public var json: JSON {
        if let original { return JSON(original) }
        return .object([("credentials", .array(credentials.map { credential -> JSON in
            var meta: [(String, JSON)] = [("doctype_value", .string(credential.document.docType))]
            if credential.format == Self.mdocZKFormat, let zk = credential.document.zeroKnowledge {
                meta.append(("zk_system_type", .array(zk.systems.map { system in
                    .object([
                        ("id", .string(system.id)), ("system", .string(ZKRequest.systemName)),
                        ("circuit_hash", .string(system.spec.circuitHash)),
                        ("num_attributes", .int(Int64(system.spec.attributeCount))), ("version", .int(Int64(system.spec.version))),
                        ("block_enc_hash", .int(Int64(system.spec.blockEncodedHash))),
                        ("block_enc_sig", .int(Int64(system.spec.blockEncodedSignature))),
                    ])
                })))
            }
            return .object([
                ("id", .string(credential.id)),
                ("format", .string(credential.format)),
                ("meta", .object(meta)),
                ("trusted_authorities", credential.document.issuerKeyIdentifiers.map(Self.trustedAuthoritiesJSON)),
                ("claims", .array(credential.document.nameSpaces.flatMap { nameSpace in
                    nameSpace.elements.map { element in
                        JSON.object([
                            ("path", .array([.string(nameSpace.nameSpace), .string(element.identifier)])),
                            ("intent_to_retain", .bool(element.intentToRetain)),
                        ])
                    }
                })),
            ])
        }))])
    }
}
