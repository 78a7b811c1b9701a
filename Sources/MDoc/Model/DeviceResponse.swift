import CBOR
import ZKMdoc

/// An ISO 18013-5 DeviceResponse (8.3.2.1.2.2), decoded strictly and with every signed byte kept as received.
public struct DeviceResponse: Sendable {
    public let version: String
    public let documents: [Document]
    /// `zkDocuments` (ISO/IEC 18013-5 second edition): documents proven in zero knowledge, beside or instead of
    /// `documents`.
    public let zkDocuments: [ZkDocument]
    /// `documentErrors`: docType -> error code.
    public let documentErrors: [String: Int64]
    public let status: UInt64

    /// Limits for untrusted responses: deep enough for any real document, tight enough to refuse abuse.
    public static let decodingLimits = CBORDecodingLimits(maxDepth: 32, maxItems: 50_000, maxInputBytes: 4 << 20)

    /// Most documents verified from one response. Each costs up to three signature verifications (chain, issuer,
    /// device), so the cap bounds the CPU one request can ask for; real responses carry one or two.
    public static let maximumDocuments = 4

    /// Most zero-knowledge documents verified from one response: each proof costs about half a second of CPU.
    public static let maximumZkDocuments = 2

    public init(bytes: [UInt8], limits: CBORDecodingLimits = DeviceResponse.decodingLimits) throws(MDocDecodingError) {
        let decoder = CBORDecoder(limits: limits)
        let item: CBORItem
        do {
            item = try decoder.decode(bytes)
        } catch {
            throw MDocDecodingError(error, context: "DeviceResponse is not a CBOR item")
        }
        try self.init(item: item, decoder: decoder)
    }

    public init(item: CBORItem, decoder: CBORDecoder = CBORDecoder(limits: DeviceResponse.decodingLimits))
        throws(MDocDecodingError)
    {
        let reader = try StructureReader(item, "DeviceResponse")
        version = try reader.text("version")
        guard version.hasPrefix("1.") else {
            throw MDocDecodingError("unsupported DeviceResponse version \(version)", offset: item.offset)
        }
        status = try reader.unsigned("status")
        let documents = try Self.entries(of: reader, "documents", maximum: Self.maximumDocuments, in: item) {
            (element, _) throws(MDocDecodingError) in try Document(element, decoder: decoder)
        }
        let zkDocuments = try Self.entries(of: reader, "zkDocuments", maximum: Self.maximumZkDocuments, in: item) {
            (element, index) throws(MDocDecodingError) in
            do throws(ZkDocumentError) {
                return try ZkDocument(element)
            } catch {
                throw MDocDecodingError("zkDocuments[\(index)]: \(error.reason)", offset: element.offset)
            }
        }
        var documentErrors: [String: Int64] = [:]
        if let errorsItem = reader.optional("documentErrors"), let entries = errorsItem.arrayValue {
            for entry in entries {
                for pair in entry.mapValue ?? [] {
                    if let docType = pair.key.textValue, let code = pair.value.intValue { documentErrors[docType] = code }
                }
            }
        }
        guard !documents.isEmpty || !zkDocuments.isEmpty else {
            // Well formed, nothing to verify: the holder declined or the wallet reported an error.
            let errors = documentErrors.sorted { $0.key < $1.key }.prefix(4).map { "\($0.key.prefix(64)): \($0.value)" }
                .joined(separator: ", ")
            throw MDocDecodingError("DeviceResponse returns no documents (status \(status)"
                                    + (errors.isEmpty ? ")" : "; documentErrors \(errors))"),
                                    offset: item.offset, code: .documentsNotReturned)
        }
        self.documents = documents
        self.zkDocuments = zkDocuments
        self.documentErrors = documentErrors
    }

    /// CDDL `? key: [+ Entry]`: absent is no entries, present is 1 to `maximum` of them (more is
    /// `DEVICE_RESPONSE_LIMIT_EXCEEDED`: the cap bounds the work one response can ask for), each read by `read`.
    static func entries<Entry>(of reader: StructureReader, _ key: String, maximum: Int, in item: CBORItem,
                               _ read: (CBORItem, Int) throws(MDocDecodingError) -> Entry) throws(MDocDecodingError) -> [Entry] {
        guard reader.optional(key) != nil else { return [] }
        let elements = try reader.array(key)
        guard !elements.isEmpty else {
            throw MDocDecodingError("DeviceResponse has an empty \(key) array (absent is allowed, empty is not)", offset: item.offset)
        }
        guard elements.count <= maximum else {
            throw MDocDecodingError("DeviceResponse holds \(elements.count) \(key); at most \(maximum) are verified per response",
                                    offset: item.offset, code: .deviceResponseLimitExceeded)
        }
        var entries: [Entry] = []
        entries.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() { entries.append(try read(element, index)) }
        return entries
    }
}
