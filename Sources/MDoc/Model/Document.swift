import CBOR

/// One document of a DeviceResponse (ISO 18013-5 8.3.2.1.2.2).
public struct Document: Sendable {
    public let docType: String
    public let issuerSigned: IssuerSigned
    /// Absent only in malformed responses; reported as `DEVICE_AUTH_MISSING`.
    public let deviceSigned: DeviceSigned?
    /// The MSO carried in `issuerSigned.issuerAuth`.
    public let mobileSecurityObject: MobileSecurityObject
    /// `errors` entries: namespace -> element -> error code.
    public let errors: [String: [String: Int64]]

    init(_ item: CBORItem, decoder: CBORDecoder) throws(MDocDecodingError) {
        let reader = try StructureReader(item, "Document")
        docType = try reader.text("docType")
        issuerSigned = try IssuerSigned(try reader.required("issuerSigned"), decoder: decoder)
        deviceSigned = try reader.optional("deviceSigned").map { (item) throws(MDocDecodingError) in
            try DeviceSigned(item, decoder: decoder)
        }
        guard let payload = issuerSigned.issuerAuth.payload else {
            throw MDocDecodingError("issuerAuth has no payload (MobileSecurityObjectBytes)", offset: item.offset)
        }
        let msoItem: CBORItem
        do {
            msoItem = try decoder.decode(payload)
        } catch {
            throw MDocDecodingError(error, context: "issuerAuth payload is not CBOR")
        }
        // The MSO has a bounded shape (at most `maximumDigests` digests), so its decoder stops early on padding.
        var msoLimits = decoder.limits
        msoLimits.maxItems = min(msoLimits.maxItems, 2 * MobileSecurityObject.maximumDigests + 1024)
        let embedded = try EmbeddedCBOR(msoItem, name: "MobileSecurityObjectBytes", decoder: CBORDecoder(limits: msoLimits))
        mobileSecurityObject = try MobileSecurityObject(embedded.content)
        var errors: [String: [String: Int64]] = [:]
        if let errorsItem = reader.optional("errors"), let pairs = errorsItem.mapValue {
            for pair in pairs {
                guard let ns = pair.key.textValue, let elements = pair.value.mapValue else { continue }
                for element in elements {
                    if let id = element.key.textValue, let code = element.value.intValue { errors[ns, default: [:]][id] = code }
                }
            }
        }
        self.errors = errors
    }
}
