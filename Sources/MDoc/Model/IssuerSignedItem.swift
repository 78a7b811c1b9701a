import CBOR

/// One issuer-signed data element (ISO 18013-5 8.3.2.1.2.2), kept with the exact bytes its digest covers.
public struct IssuerSignedItem: Sendable {
    public let digestID: UInt64
    public let random: ArraySlice<UInt8>
    public let elementIdentifier: String
    public let elementValue: CBORItem
    /// `IssuerSignedItemBytes` as received: `#6.24(bstr)` including the tag and bstr heads.
    public let taggedBytes: ArraySlice<UInt8>

    init(_ item: CBORItem, decoder: CBORDecoder) throws(MDocDecodingError) {
        let embedded = try EmbeddedCBOR(item, name: "IssuerSignedItemBytes", decoder: decoder)
        let reader = try StructureReader(embedded.content, "IssuerSignedItem")
        digestID = try reader.unsigned("digestID")
        random = try reader.bytes("random")
        elementIdentifier = try reader.text("elementIdentifier")
        elementValue = try reader.required("elementValue")
        taggedBytes = embedded.taggedBytes
    }
}
