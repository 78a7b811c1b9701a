import CBOR
import Crypto

/// A COSE_Mac0 message (RFC 9052 section 6.2), tagged (17) or untagged.
public struct COSEMac0: Sendable {
    public let headers: COSEHeaders
    /// The attached payload, or nil when it is detached.
    public let payload: ArraySlice<UInt8>?
    /// The tag as received.
    public let tag: ArraySlice<UInt8>
    private let parts: COSEMessageParts

    public init(item: CBORItem, decoder: CBORDecoder = CBORDecoder()) throws(COSEError) {
        parts = try COSEMessageParts(item: item, expectedTag: CBORTag.coseMac0, name: "COSE_Mac0", decoder: decoder)
        headers = parts.headers
        payload = parts.payload
        tag = parts.authenticator
    }

    /// The MAC_structure `["MAC0", protected, external_aad, payload]` that the tag covers.
    public func macStructure(detachedPayload: ArraySlice<UInt8>? = nil, externalAAD: [UInt8] = [])
        throws(COSEError) -> [UInt8]
    {
        try parts.toBeAuthenticated(context: "MAC0", detachedPayload: detachedPayload, externalAAD: externalAAD)
    }

    /// Verifies the tag with `key` in constant time. Only HMAC 256/256 (alg 5) is accepted.
    public func verify(using key: SymmetricKey, detachedPayload: ArraySlice<UInt8>? = nil,
                       externalAAD: [UInt8] = []) throws(COSEError)
    {
        try headers.checkCritical()
        let algorithm = try headers.algorithm()
        guard algorithm == .hmac256 else { throw .algorithmUnsupported(algorithm.rawValue) }
        guard tag.count == SHA256.byteCount else {
            throw .signatureLengthInvalid(expected: SHA256.byteCount, actual: tag.count)
        }
        let message = try macStructure(detachedPayload: detachedPayload, externalAAD: externalAAD)
        guard HMAC<SHA256>.isValidAuthenticationCode(Array(tag), authenticating: message, using: key) else {
            throw .tagInvalid
        }
    }
}
