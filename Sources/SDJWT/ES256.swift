import Crypto

/// ES256 (RFC 7518 3.4): ECDSA over P-256 with SHA-256, the signature as the 64-byte `R || S`. The only JWS
/// algorithm SD-JWT VC verification accepts (HAIP 1.0 section 7).
public enum ES256 {
    public static let name = "ES256"

    /// Whether `signature` is a valid ES256 signature of `signingInput` by `key`.
    public static func isValid(_ signature: [UInt8], over signingInput: [UInt8], key: P256.Signing.PublicKey) -> Bool {
        guard signature.count == 64, let parsed = try? P256.Signing.ECDSASignature(rawRepresentation: signature) else {
            return false
        }
        return key.isValidSignature(parsed, for: signingInput)
    }
}
