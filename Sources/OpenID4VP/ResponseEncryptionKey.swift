import Crypto
import Encodings
import StrictJSON

/// The fresh P-256 key a session's answer is encrypted to (ECDH-ES), with the `kid` the request names it by.
public struct ResponseEncryptionKey: Sendable {
    public let privateKey: P256.KeyAgreement.PrivateKey
    public let kid: String

    public init(privateKey: P256.KeyAgreement.PrivateKey = P256.KeyAgreement.PrivateKey(), kid: String) {
        self.privateKey = privateKey
        self.kid = kid
    }

    /// The public key's affine coordinates, base64url without padding.
    var coordinates: (x: String, y: String) {
        let raw = Array(privateKey.publicKey.rawRepresentation)
        return (Base64URL.encode(raw[0..<32]), Base64URL.encode(raw[32..<64]))
    }

    /// The public JWK for `client_metadata.jwks`: `kty`, `crv`, `x`, `y`, `kid`, `use: "enc"`, `alg: "ECDH-ES"`.
    public var publicJWK: JSON {
        let (x, y) = coordinates
        return .object([
            ("kty", .string("EC")), ("crv", .string("P-256")), ("x", .string(x)), ("y", .string(y)),
            ("kid", .string(kid)), ("use", .string("enc")), ("alg", .string("ECDH-ES")),
        ])
    }

    /// The RFC 7638 SHA-256 thumbprint: the hash of the required members only, in lexicographic order, no spaces.
    public var thumbprint: [UInt8] {
        let (x, y) = coordinates
        return Self.thumbprint(x: x, y: y)
    }

    /// The RFC 7638 thumbprint of a P-256 public key given by its base64url coordinates.
    public static func thumbprint(x: String, y: String) -> [UInt8] {
        Array(SHA256.hash(data: Array(#"{"crv":"P-256","kty":"EC","x":"\#(x)","y":"\#(y)"}"#.utf8)))
    }
}
