import Encodings

/// A list as JAdES compact serialization (RFC 7515 7.1): `BASE64URL(header) '.' BASE64URL(payload) '.'
/// BASE64URL(signature)`, the list attached. The JSON serializations are refused: the JSON profiles of TS 119 602
/// require compact JAdES.
struct LoTECompactJWS: Sendable {
    /// The protected header, decoded (JSON text).
    let header: [UInt8]
    /// The payload, decoded (the LoTE JSON document).
    let payload: [UInt8]
    let signature: [UInt8]
    /// `header '.' payload` as sent: what the signature covers.
    let signingInput: [UInt8]

    init(_ bytes: [UInt8]) throws(LoTEError) {
        // Line ends after the token (a file saved with a final newline) are not part of it.
        var end = bytes.count
        while end > 0, [0x0A, 0x0D, 0x20, 0x09].contains(bytes[end - 1]) { end -= 1 }
        let token = bytes[0..<end]
        if token.first == UInt8(ascii: "{") {
            throw LoTEError(.headerInvalid, "not a compact JWS (JWS JSON serialization?): the JSON profiles of TS 119 602 "
                            + "require compact JAdES")
        }
        let parts = token.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            throw LoTEError(.headerInvalid, "not a compact JWS: \(parts.count) dot-separated parts instead of 3")
        }
        func decode(_ part: ArraySlice<UInt8>, _ name: String) throws(LoTEError) -> [UInt8] {
            let decoded = Array(part).withUnsafeBufferPointer { Base64URL.decodeBytes(utf8: $0) }
            guard let decoded else {
                throw LoTEError(.headerInvalid, "not a compact JWS: the \(name) is not unpadded base64url")
            }
            return decoded
        }
        header = try decode(parts[0], "protected header")
        payload = try decode(parts[1], "payload")
        signature = try decode(parts[2], "signature")
        signingInput = Array(bytes[0..<(parts[1].endIndex)])
    }
}
