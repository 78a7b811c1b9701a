import CBOR

/// A COSE_Sign1 message (RFC 9052 section 4.2), tagged (18) or untagged.
public struct COSESign1: Sendable {
    public let headers: COSEHeaders
    /// The attached payload, or nil when it is detached.
    public let payload: ArraySlice<UInt8>?
    /// The signature as received.
    public let signature: ArraySlice<UInt8>
    private let parts: COSEMessageParts

    public init(item: CBORItem, decoder: CBORDecoder = CBORDecoder()) throws(COSEError) {
        parts = try COSEMessageParts(item: item, expectedTag: CBORTag.coseSign1, name: "COSE_Sign1", decoder: decoder)
        headers = parts.headers
        payload = parts.payload
        signature = parts.authenticator
    }

    public init(bytes: [UInt8], decoder: CBORDecoder = CBORDecoder()) throws(COSEError) {
        let item: CBORItem
        do {
            item = try decoder.decode(bytes)
        } catch {
            throw .malformed("not CBOR: \(error)", offset: error.offset)
        }
        try self.init(item: item, decoder: decoder)
    }

    /// The Sig_structure `["Signature1", protected, external_aad, payload]` that the signature covers.
    public func signatureStructure(detachedPayload: ArraySlice<UInt8>? = nil, externalAAD: [UInt8] = [])
        throws(COSEError) -> [UInt8]
    {
        try parts.toBeAuthenticated(context: "Signature1", detachedPayload: detachedPayload, externalAAD: externalAAD)
    }

    /// Verifies the signature with `key`. The `alg` comes from the protected header and must fit the key's curve;
    /// a `crit` header must list only labels this library understands.
    public func verify(using key: COSEPublicKey, detachedPayload: ArraySlice<UInt8>? = nil,
                       externalAAD: [UInt8] = []) throws(COSEError)
    {
        try headers.checkCritical()
        let algorithm = try headers.algorithm()
        let message = try signatureStructure(detachedPayload: detachedPayload, externalAAD: externalAAD)
        try key.verify(signature: signature, over: message, algorithm: algorithm)
    }
}
