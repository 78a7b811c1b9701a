import CBOR

/// The MSO's `status` entry (ISO 18013-5 2nd edition 12.3.6): where the issuer publishes this document's status.
public struct StatusReferences: Sendable, Hashable {
    /// `status_list`: an index into an IETF OAuth Token Status List.
    public struct StatusList: Sendable, Hashable {
        public let index: UInt64
        public let uri: String
        /// A certificate the list signer chains to instead of the IACA, when the issuer names one.
        public let certificate: [UInt8]?

        public init(index: UInt64, uri: String, certificate: [UInt8]? = nil) {
            self.index = index
            self.uri = uri
            self.certificate = certificate
        }
    }

    /// `identifier_list`: the document is revoked when its identifier is listed.
    public struct IdentifierList: Sendable, Hashable {
        public let identifier: [UInt8]
        public let uri: String
        public let certificate: [UInt8]?

        public init(identifier: [UInt8], uri: String, certificate: [UInt8]? = nil) {
            self.identifier = identifier
            self.uri = uri
            self.certificate = certificate
        }
    }

    public let statusList: StatusList?
    public let identifierList: IdentifierList?

    /// Longest URI accepted in a reference.
    static let maximumURIBytes = 2048

    init(_ item: CBORItem) throws(MDocDecodingError) {
        let reader = try StructureReader(item, "status")
        if let entry = reader.optional("status_list") {
            let list = try StructureReader(entry, "status_list")
            statusList = StatusList(index: try list.unsigned("idx"), uri: try Self.uri(list),
                                    certificate: try Self.certificate(list))
        } else {
            statusList = nil
        }
        if let entry = reader.optional("identifier_list") {
            let list = try StructureReader(entry, "identifier_list")
            identifierList = IdentifierList(identifier: Array(try list.bytes("id")), uri: try Self.uri(list),
                                            certificate: try Self.certificate(list))
        } else {
            identifierList = nil
        }
    }

    private static func uri(_ reader: StructureReader) throws(MDocDecodingError) -> String {
        let uri = try reader.text("uri")
        guard !uri.isEmpty, uri.utf8.count <= maximumURIBytes else {
            throw MDocDecodingError("\(reader.name).uri is empty or longer than \(maximumURIBytes) bytes",
                                    offset: reader.item.offset)
        }
        return uri
    }

    private static func certificate(_ reader: StructureReader) throws(MDocDecodingError) -> [UInt8]? {
        guard let value = reader.optional("certificate") else { return nil }
        guard let bytes = value.bytesValue else { throw reader.mistyped("certificate", value, "a byte string") }
        return Array(bytes)
    }

    /// Whether the entry names any list at all.
    public var isEmpty: Bool { statusList == nil && identifierList == nil }

    /// Each reference as a key of the evidence the `mso.status` check reads.
    public var keys: [StatusReferenceKey] {
        [statusList.map { .statusList($0) }, identifierList.map { .identifierList($0) }].compactMap { $0 }
    }
}
