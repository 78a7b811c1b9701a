import Crypto
import Encodings
import Foundation

/// The reader's ephemeral private key (EReaderKey), used with the MSO device key to derive the EMacKey.
public enum EphemeralReaderKey: Sendable {
    case p256(P256.KeyAgreement.PrivateKey)
    case p384(P384.KeyAgreement.PrivateKey)
    case p521(P521.KeyAgreement.PrivateKey)

    /// A raw private scalar; the curve follows from its length (32, 48 or 66 bytes).
    public init(rawScalar: [UInt8]) throws {
        switch rawScalar.count {
        case 32: self = .p256(try P256.KeyAgreement.PrivateKey(rawRepresentation: rawScalar))
        case 48: self = .p384(try P384.KeyAgreement.PrivateKey(rawRepresentation: rawScalar))
        case 66: self = .p521(try P521.KeyAgreement.PrivateKey(rawRepresentation: rawScalar))
        default: throw CryptoKitError.incorrectKeySize
        }
    }

    /// A PEM private key (PKCS#8 or SEC1) on P-256, P-384 or P-521; the first private key block counts.
    public init(pem: String) throws {
        guard let block = try PEM.blocks(in: pem).first(where: { PEM.privateKeyLabels.contains($0.label) }) else {
            throw NoPrivateKeyBlock()
        }
        if let key = try? P256.KeyAgreement.PrivateKey(derRepresentation: block.bytes) {
            self = .p256(key)
        } else if let key = try? P384.KeyAgreement.PrivateKey(derRepresentation: block.bytes) {
            self = .p384(key)
        } else {
            self = .p521(try P521.KeyAgreement.PrivateKey(derRepresentation: block.bytes))
        }
    }

    /// PEM text without a `PRIVATE KEY` (PKCS#8) or `EC PRIVATE KEY` (SEC1) block.
    public struct NoPrivateKeyBlock: Error, Sendable {}

    /// The ECDH shared secret (x-coordinate) with a public point `04 || X || Y` on the same curve.
    func sharedSecret(withX963 point: [UInt8]) throws -> SharedSecret {
        switch self {
        case .p256(let key):
            return try key.sharedSecretFromKeyAgreement(with: P256.KeyAgreement.PublicKey(x963Representation: point))
        case .p384(let key):
            return try key.sharedSecretFromKeyAgreement(with: P384.KeyAgreement.PublicKey(x963Representation: point))
        case .p521(let key):
            return try key.sharedSecretFromKeyAgreement(with: P521.KeyAgreement.PublicKey(x963Representation: point))
        }
    }
}

