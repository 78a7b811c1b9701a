import CBOR

/// One zero-knowledge document of a DeviceResponse (`zkDocuments`, ISO/IEC 18013-5 second edition; what Google
/// Wallet sends): the proof and the document data it is about, read strictly. The disclosed values keep their exact
/// CBOR bytes (they are the proof's public input); the items keep their order (the proof binds it).
public struct ZkDocument: Sendable {
    /// One disclosed element: its identifier and the exact bytes of its value.
    public struct Element: Sendable, Equatable {
        public let identifier: String
        /// The value's exact CBOR bytes (the proof's public input).
        public let value: [UInt8]
        /// The value, decoded.
        public let item: CBORItem

        public static func == (lhs: Element, rhs: Element) -> Bool {
            lhs.identifier == rhs.identifier && lhs.value == rhs.value
        }
    }

    public let docType: String
    public let zkSystemId: String
    /// `YYYY-MM-DDTHH:MM:SSZ`, as the proof states it.
    public let timestamp: String
    /// The one namespace the document names for its elements (not proven: checked against the docType's).
    public let nameSpace: String
    public let elements: [Element]
    /// DER certificates, the document signer's first.
    public let certificates: [[UInt8]]
    public let proof: [UInt8]

    /// The largest proof read (an ISRG v7 proof is about 837 KB).
    public static let maximumProofBytes = 1 << 20
    /// The most elements one document may disclose (the published circuits prove 1 to 4).
    public static let maximumElements = 4

    /// Reads one entry of `zkDocuments`.
    public init(_ item: CBORItem) throws(ZkDocumentError) {
        guard let pairs = item.mapValue else { throw ZkDocumentError("a ZkDocument is a map") }
        try Self.onlyKeys(pairs, ["documentData", "proof"], in: "ZkDocument")
        guard let proof = item["proof"]?.bytesValue, proof.count <= Self.maximumProofBytes else {
            throw ZkDocumentError("proof is not a byte string of at most \(Self.maximumProofBytes) bytes")
        }
        guard let tagged = item["documentData"]?.tagged, tagged.tag == 24, let embedded = tagged.item.bytesValue else {
            throw ZkDocumentError("documentData is not #6.24(bstr)")
        }
        let data: CBORItem
        do {
            data = try CBORDecoder(limits: CBORDecodingLimits(maxDepth: 16, maxItems: 4_096, maxInputBytes: 64 << 10)).decode(Array(embedded))
        } catch {
            throw ZkDocumentError("documentData does not decode as CBOR")
        }
        guard let fields = data.mapValue else { throw ZkDocumentError("ZkDocumentData is a map") }
        try Self.onlyKeys(fields, ["docType", "zkSystemId", "timestamp", "issuerSigned", "deviceSigned", "msoX5chain"],
                          in: "ZkDocumentData")
        guard let docType = data["docType"]?.textValue, !docType.isEmpty, docType.utf8.count < 256 else {
            throw ZkDocumentError("docType is not a text of 1 to 255 bytes")
        }
        guard let systemId = data["zkSystemId"]?.textValue, !systemId.isEmpty, systemId.utf8.count <= 256 else {
            throw ZkDocumentError("zkSystemId is not a text of 1 to 256 bytes")
        }
        guard let time = data["timestamp"]?.tagged, time.tag == 0, let timestamp = time.item.textValue,
              ZKTime.isProofTime(timestamp)
        else { throw ZkDocumentError("timestamp is not #6.0 of YYYY-MM-DDTHH:MM:SSZ") }
        if let device = data["deviceSigned"] {
            // The circuits fix DeviceNameSpaces to {}: a document that says otherwise is not what was proven.
            guard let map = device.mapValue, map.isEmpty else { throw ZkDocumentError("deviceSigned is not empty") }
        }
        guard let issuerSigned = data["issuerSigned"]?.mapValue, issuerSigned.count == 1,
              let nameSpace = issuerSigned[0].key.textValue, let items = issuerSigned[0].value.arrayValue,
              (1...Self.maximumElements).contains(items.count)
        else { throw ZkDocumentError("issuerSigned is not one namespace with 1 to \(Self.maximumElements) elements") }
        var elements: [Element] = []
        for (index, element) in items.enumerated() {
            guard let pairs = element.mapValue else { throw ZkDocumentError("issuerSigned element \(index) is not a map") }
            try Self.onlyKeys(pairs, ["elementIdentifier", "elementValue"], in: "issuerSigned element \(index)")
            guard let identifier = element["elementIdentifier"]?.textValue, let value = element["elementValue"] else {
                throw ZkDocumentError("issuerSigned element \(index) has no elementIdentifier or elementValue")
            }
            elements.append(Element(identifier: identifier, value: Array(value.encoded), item: value))
        }
        var certificates: [[UInt8]] = []
        if let single = data["msoX5chain"]?.bytesValue {
            certificates = [Array(single)]
        } else if let list = data["msoX5chain"]?.arrayValue, (1...8).contains(list.count) {
            for entry in list {
                guard let der = entry.bytesValue else { throw ZkDocumentError("msoX5chain holds a non-bstr") }
                certificates.append(Array(der))
            }
        } else {
            throw ZkDocumentError("msoX5chain is not a certificate or 1 to 8 of them")
        }
        self.docType = docType
        zkSystemId = systemId
        self.timestamp = timestamp
        self.nameSpace = nameSpace
        self.elements = elements
        self.certificates = certificates
        self.proof = Array(proof)
    }

    static func onlyKeys(_ pairs: [CBORItem.Pair], _ allowed: Set<String>, in what: String) throws(ZkDocumentError) {
        var seen: Set<String> = []
        for pair in pairs {
            guard let key = pair.key.textValue, allowed.contains(key), seen.insert(key).inserted else {
                throw ZkDocumentError("\(what) has a key that is not one of \(allowed.sorted().joined(separator: ", ")), or a key twice")
            }
        }
    }
}

/// Why a ZkDocument was refused before any verification.
public struct ZkDocumentError: Error, Sendable, Equatable, CustomStringConvertible {
    public let reason: String

    init(_ reason: String) {
        self.reason = reason
    }

    public var description: String { reason }
}
