import CBOR

/// Tag-24 embedded CBOR (`#6.24(bstr .cbor T)`): the exact bytes of the whole tagged item and the decoded content.
public struct EmbeddedCBOR: Sendable {
    /// `#6.24(bstr)` around already encoded CBOR: how DeviceAuthenticationBytes and SessionTranscriptBytes are built.
    public static func tag24(_ content: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0xd8, 0x18]
        CBOREncoder().writeHead(major: 2, argument: UInt64(content.count), into: &out)
        out.append(contentsOf: content)
        return out
    }

    /// The tag, bstr head and content exactly as received: what digests and signatures cover.
    public let taggedBytes: ArraySlice<UInt8>
    /// The decoded content of the byte string.
    public let content: CBORItem

    init(_ item: CBORItem, name: String, decoder: CBORDecoder) throws(MDocDecodingError) {
        guard let (tag, inner) = item.tagged, tag == CBORTag.encodedCBOR, let bytes = inner.bytesValue else {
            throw MDocDecodingError("\(name) is not a tag-24 byte string", offset: item.offset)
        }
        do {
            content = try decoder.decode(bytes)
        } catch {
            throw MDocDecodingError(error, context: "\(name) does not hold one CBOR item")
        }
        taggedBytes = item.encoded
    }
}
