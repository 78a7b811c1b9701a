import ZKMdoc

/// What the reader asked for (the ItemsRequests of a DeviceRequest), so a report can compare the answer with it.
///
/// ISO 18013-5 8.3.2.1.2.1: an mdoc returns only requested data elements, and may withhold any of them (the holder
/// can decline). So an element that was not asked for is a failure, and one that did not come back is not.
public struct RequestedItems: Sendable, Equatable {
    /// One requested element and whether the reader said it intends to retain it.
    public struct Element: Sendable, Equatable {
        public let identifier: String
        public let intentToRetain: Bool

        public init(_ identifier: String, intentToRetain: Bool) {
            self.identifier = identifier
            self.intentToRetain = intentToRetain
        }
    }

    /// One ItemsRequest: a docType and its namespaces, in request order.
    public struct Document: Sendable, Equatable {
        public let docType: String
        public let nameSpaces: [(nameSpace: String, elements: [Element])]
        /// The zero-knowledge proof systems offered for this document (its ItemsRequest's `requestInfo.zkRequest`).
        public let zeroKnowledge: ZKRequest?
        /// The authorities whose certificates the document's issuer chain must name (OpenID4VP `trusted_authorities`
        /// of type `aki`, ISO 18013-5 `requestInfo.issuerIdentifiers`): AuthorityKeyIdentifier keyIdentifiers; nil for
        /// none asked.
        public let issuerKeyIdentifiers: [[UInt8]]?

        public init(docType: String, nameSpaces: [(nameSpace: String, elements: [Element])], zeroKnowledge: ZKRequest? = nil,
                    issuerKeyIdentifiers: [[UInt8]]? = nil) {
            self.docType = docType
            self.nameSpaces = nameSpaces
            self.zeroKnowledge = zeroKnowledge
            self.issuerKeyIdentifiers = issuerKeyIdentifiers
        }

        /// The same document asking for `identifiers` as its trusted authorities.
        public func naming(issuerKeyIdentifiers identifiers: [[UInt8]]?) -> Document {
            Document(docType: docType, nameSpaces: nameSpaces, zeroKnowledge: zeroKnowledge, issuerKeyIdentifiers: identifiers)
        }

        /// Every requested element, in request order.
        public var elementCount: Int { nameSpaces.reduce(0) { $0 + $1.elements.count } }

        public func contains(nameSpace: String, identifier: String) -> Bool {
            nameSpaces.contains { $0.nameSpace == nameSpace && $0.elements.contains { $0.identifier == identifier } }
        }

        public static func == (lhs: Document, rhs: Document) -> Bool {
            lhs.docType == rhs.docType && lhs.zeroKnowledge == rhs.zeroKnowledge && lhs.issuerKeyIdentifiers == rhs.issuerKeyIdentifiers
                && lhs.nameSpaces.count == rhs.nameSpaces.count
                && zip(lhs.nameSpaces, rhs.nameSpaces).allSatisfy { $0.nameSpace == $1.nameSpace && $0.elements == $1.elements }
        }
    }

    public let documents: [Document]

    public init(documents: [Document]) {
        self.documents = documents
    }

    /// The requests for a docType (a reader may ask for one docType in several DocRequests).
    public func requests(for docType: String) -> [Document] {
        documents.filter { $0.docType == docType }
    }

    /// Whether any request for `docType` asked for this element.
    public func isRequested(docType: String, nameSpace: String, identifier: String) -> Bool {
        requests(for: docType).contains { $0.contains(nameSpace: nameSpace, identifier: identifier) }
    }
}

/// A requested element that the answer did not contain.
public struct ElementReference: Sendable, Equatable, Hashable {
    public let nameSpace: String
    public let identifier: String

    public init(nameSpace: String, identifier: String) {
        self.nameSpace = nameSpace
        self.identifier = identifier
    }
}
