import Crypto
import CryptoExtras
import X509

/// The JWS algorithms a list may be signed with (RFC 7518 3.3–3.5): ECDSA, and RSA with PKCS#1 v1.5 or PSS (the
/// Commission's lists are RS512). Never `none` or an HMAC, whose "key" a list signer's certificate cannot name.
enum LoTESignatureAlgorithm: String, Sendable, CaseIterable {
    case es256 = "ES256", es384 = "ES384", es512 = "ES512"
    case ps256 = "PS256", ps384 = "PS384", ps512 = "PS512"
    case rs256 = "RS256", rs384 = "RS384", rs512 = "RS512"

    /// The smallest RSA modulus accepted, in bits.
    static let minimumRSABits = 2_048

    /// Why `signature` is not this algorithm's signature over `input` by `key`, or nil when it is.
    func problem(signature: [UInt8], over input: [UInt8], key: Certificate.PublicKey) -> String? {
        switch self {
        case .es256:
            guard let key = P256.Signing.PublicKey(key) else { return keyMismatch("an EC P-256 key") }
            guard let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signature),
                  key.isValidSignature(signature, for: input)
            else { return invalid }
        case .es384:
            guard let key = P384.Signing.PublicKey(key) else { return keyMismatch("an EC P-384 key") }
            guard let signature = try? P384.Signing.ECDSASignature(rawRepresentation: signature),
                  key.isValidSignature(signature, for: input)
            else { return invalid }
        case .es512:
            guard let key = P521.Signing.PublicKey(key) else { return keyMismatch("an EC P-521 key") }
            guard let signature = try? P521.Signing.ECDSASignature(rawRepresentation: signature),
                  key.isValidSignature(signature, for: input)
            else { return invalid }
        case .ps256, .ps384, .ps512, .rs256, .rs384, .rs512:
            guard let key = _RSA.Signing.PublicKey(key) else { return keyMismatch("an RSA key") }
            guard key.keySizeInBits >= Self.minimumRSABits else {
                return "x5c[0] holds a \(key.keySizeInBits)-bit RSA key; at least \(Self.minimumRSABits) bits are accepted"
            }
            let padding: _RSA.Signing.Padding = rawValue.hasPrefix("PS") ? .PSS : .insecurePKCS1v1_5
            let rsaSignature = _RSA.Signing.RSASignature(rawRepresentation: signature)
            let valid: Bool
            switch self {
            case .ps256, .rs256: valid = key.isValidSignature(rsaSignature, for: SHA256.hash(data: input), padding: padding)
            case .ps384, .rs384: valid = key.isValidSignature(rsaSignature, for: SHA384.hash(data: input), padding: padding)
            default: valid = key.isValidSignature(rsaSignature, for: SHA512.hash(data: input), padding: padding)
            }
            if !valid { return invalid }
        }
        return nil
    }

    private func keyMismatch(_ needed: String) -> String { "alg \(rawValue) needs \(needed); x5c[0] holds another" }

    private var invalid: String { "the \(rawValue) signature does not verify with x5c[0]'s key" }
}
