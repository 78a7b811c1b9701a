import Crypto

/// Signs a compact JWS with ES256 (RFC 7515 7.1, RFC 7518 3.4): `header '.' BASE64URL(payload) '.' BASE64URL(r || s)`,
/// the signature in its fixed 64-byte form, never DER. The one JWS signer (reader tokens, request objects).
public enum ES256CompactJWS {
    /// `encodedHeader` is the base64url protected header, made once by the caller.
    public static func sign(encodedHeader: String, payload: [UInt8], key: P256.Signing.PrivateKey) throws -> String {
        let signingInput = encodedHeader + "." + Base64URL.encode(payload)
        let signature = try key.signature(for: Array(signingInput.utf8))
        return signingInput + "." + Base64URL.encode(signature.rawRepresentation)
    }
}
