import CBOR

/// The four-element body shared by COSE_Sign1 and COSE_Mac0: headers, payload, and signature or tag.
struct COSEMessageParts: Sendable {
    let headers: COSEHeaders
    let payload: ArraySlice<UInt8>?
    let authenticator: ArraySlice<UInt8>

    /// Reads `[protected, unprotected, payload / nil, signature-or-tag]`, optionally wrapped in `expectedTag`.
    init(item: CBORItem, expectedTag: UInt64, name: String, decoder: CBORDecoder) throws(COSEError) {
        var body = item
        if let (tag, inner) = item.tagged {
            guard tag == expectedTag else {
                throw .malformed("\(name) has tag \(tag), expected \(expectedTag)", offset: item.offset)
            }
            body = inner
        }
        guard let elements = body.arrayValue, elements.count == 4 else {
            throw .malformed("\(name) is not an array of 4 elements", offset: body.offset)
        }
        headers = try COSEHeaders(protectedItem: elements[0], unprotectedItem: elements[1], decoder: decoder)
        if elements[2].isNull {
            payload = nil
        } else if let bytes = elements[2].bytesValue {
            payload = bytes
        } else {
            throw .malformed("\(name) payload is neither a bstr nor null", offset: elements[2].offset)
        }
        guard let authenticator = elements[3].bytesValue else {
            throw .malformed("\(name) signature/tag is not a bstr", offset: elements[3].offset)
        }
        self.authenticator = authenticator
    }

    /// `[context, body_protected, external_aad, payload]` (RFC 9052 sections 4.4 and 6.3), using the protected
    /// header bytes exactly as received.
    func toBeAuthenticated(context: String, detachedPayload: ArraySlice<UInt8>?, externalAAD: [UInt8])
        throws(COSEError) -> [UInt8]
    {
        guard let content = payload ?? detachedPayload else { throw .payloadMissing }
        let encoder = CBOREncoder()
        var out: [UInt8] = [0x84]
        encoder.write(.text(context), into: &out)
        encoder.writeHead(major: 2, argument: UInt64(headers.protectedBytes.count), into: &out)
        out.append(contentsOf: headers.protectedBytes)
        encoder.writeHead(major: 2, argument: UInt64(externalAAD.count), into: &out)
        out.append(contentsOf: externalAAD)
        encoder.writeHead(major: 2, argument: UInt64(content.count), into: &out)
        out.append(contentsOf: content)
        return out
    }
}
