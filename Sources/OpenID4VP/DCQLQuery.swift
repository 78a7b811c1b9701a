import MDoc
import StrictJSON

/// The Digital Credentials Query Language query (OpenID4VP 1.0 section 6) for mdocs: one credential query per
/// requested document (`format: "mso_mdoc"`, `meta.doctype_value`, `claims[].path = [namespace, element]` with
/// `intent_to_retain`), `multiple` false.
public struct DCQLQuery: Sendable, Equatable {
    public struct Credential: Sendable, Equatable {
        /// `[A-Za-z0-9_-]+`, unique in the query.
        public let id: String
        public let document: RequestedItems.Document
    }

    public let credentials: [Credential]

    /// The query for `requested`; each credential id is the docType with other characters as `_`, made unique.
    public init(_ requested: RequestedItems) {
        var used = Set<String>()
        credentials = requested.documents.map { document in
            let base = String(document.docType.unicodeScalars.map { scalar -> Character in
                scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "-")
                    ? Character(scalar) : "_"
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
    }

    init(credentials: [Credential]) {
        self.credentials = credentials
    }

    /// The credential query with this id.
    public func credential(_ id: String) -> Credential? {
        credentials.first { $0.id == id }
    }

    /// The query as JSON for the request object.
    public var json: JSON {
        .object([("credentials", .array(credentials.map { credential in
            .object([
                ("id", .string(credential.id)),
                ("format", .string("mso_mdoc")),
                ("meta", .object([("doctype_value", .string(credential.document.docType))])),
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
