import CBOR

/// The Mobile Security Object (ISO 18013-5 9.1.2.4): what the issuer signs.
public struct MobileSecurityObject: Sendable {
    public let version: String
    /// As written in the MSO, e.g. "SHA-256".
    public let digestAlgorithm: String
    /// namespace -> digestID -> digest.
    public let valueDigests: [String: [UInt64: ArraySlice<UInt8>]]
    /// `deviceKeyInfo.deviceKey`, a COSE_Key as received; the `mso.deviceKey` check validates it.
    public let deviceKey: CBORItem
    public let keyAuthorizations: KeyAuthorizations?
    /// `deviceKeyInfo.keyInfo`, kept as received.
    public let keyInfo: CBORItem?
    public let docType: String
    public let validityInfo: ValidityInfo
    /// The second-edition `status` entry (e.g. a Token Status List reference), kept as received.
    public let status: CBORItem?
    /// The `status` entry decoded: where this document's revocation status is published.
    public let statusReferences: StatusReferences?

    /// Most value digests accepted in one MSO (an mDL has a few dozen).
    public static let maximumDigests = 4096

    init(_ item: CBORItem) throws(MDocDecodingError) {
        let reader = try StructureReader(item, "MobileSecurityObject")
        version = try reader.text("version")
        digestAlgorithm = try reader.text("digestAlgorithm")
        docType = try reader.text("docType")
        var digests: [String: [UInt64: ArraySlice<UInt8>]] = [:]
        var digestCount = 0
        for pair in try reader.map("valueDigests") {
            guard let nameSpace = pair.key.textValue, let entries = pair.value.mapValue else {
                throw MDocDecodingError("valueDigests entry is not tstr => map", offset: pair.key.offset)
            }
            var byID: [UInt64: ArraySlice<UInt8>] = [:]
            byID.reserveCapacity(entries.count)
            digestCount += entries.count
            guard digestCount <= Self.maximumDigests else {
                throw MDocDecodingError("the MSO holds more than \(Self.maximumDigests) value digests", offset: pair.key.offset,
                                        code: .deviceResponseLimitExceeded)
            }
            for entry in entries {
                guard let id = entry.key.unsignedValue, let digest = entry.value.bytesValue else {
                    throw MDocDecodingError("digest entry is not uint => bstr", offset: entry.key.offset)
                }
                byID[id] = digest
            }
            digests[nameSpace] = byID
        }
        valueDigests = digests
        let keyInfoReader = try StructureReader(try reader.required("deviceKeyInfo"), "DeviceKeyInfo")
        deviceKey = try keyInfoReader.required("deviceKey")
        keyAuthorizations = try keyInfoReader.optional("keyAuthorizations").map {
            (item) throws(MDocDecodingError) in try KeyAuthorizations(item)
        }
        keyInfo = keyInfoReader.optional("keyInfo")
        validityInfo = try ValidityInfo(try reader.required("validityInfo"))
        status = reader.optional("status")
        statusReferences = try status.map { (item) throws(MDocDecodingError) in try StatusReferences(item) }
    }
}

/// `KeyAuthorizations`: which device-signed elements the device key may sign.
public struct KeyAuthorizations: Sendable {
    /// Whole namespaces the device may sign.
    public let nameSpaces: Set<String>
    /// Individual elements, by namespace.
    public let dataElements: [String: Set<String>]

    init(_ item: CBORItem) throws(MDocDecodingError) {
        let reader = try StructureReader(item, "KeyAuthorizations")
        var nameSpaces = Set<String>()
        if reader.optional("nameSpaces") != nil {
            for element in try reader.array("nameSpaces") {
                guard let ns = element.textValue else {
                    throw MDocDecodingError("authorized namespace is not text", offset: element.offset)
                }
                nameSpaces.insert(ns)
            }
        }
        var dataElements: [String: Set<String>] = [:]
        if reader.optional("dataElements") != nil {
            for pair in try reader.map("dataElements") {
                guard let ns = pair.key.textValue, let ids = pair.value.arrayValue else {
                    throw MDocDecodingError("dataElements entry is not tstr => [tstr]", offset: pair.key.offset)
                }
                var set = Set<String>()
                for id in ids {
                    guard let text = id.textValue else {
                        throw MDocDecodingError("authorized element is not text", offset: id.offset)
                    }
                    set.insert(text)
                }
                dataElements[ns] = set
            }
        }
        self.nameSpaces = nameSpaces
        self.dataElements = dataElements
    }

    /// Whether the device key may sign `element` in `nameSpace`.
    public func authorizes(nameSpace: String, element: String) -> Bool {
        nameSpaces.contains(nameSpace) || dataElements[nameSpace]?.contains(element) == true
    }
}
