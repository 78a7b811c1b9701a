import Crypto
import Encodings
import Foundation

/// The server's P-256 signing key for reader tokens.
///
/// Descriptions, debug descriptions and mirrors are redacted; the private key is only
/// reachable through ``pkcs8PEM`` and ``writePrivateKey(to:overwrite:)``.
public struct ReaderTokenSigningKey: Sendable {
    let privateKey: P256.Signing.PrivateKey

    /// Loads a P-256 private key from PEM text: PKCS#8 (`BEGIN PRIVATE KEY`) or
    /// SEC1 (`BEGIN EC PRIVATE KEY`). Other PEM blocks (e.g. `EC PARAMETERS`) are skipped.
    /// - Throws: ``ReaderTokenError/invalidSigningKey(reason:)``; never includes the input.
    public init(pemRepresentation pem: String) throws(ReaderTokenError) {
        do {
            privateKey = try P256PrivateKeyPEM.key(from: pem)
        } catch {
            switch error {
            case .notPEM(let reason): throw .invalidSigningKey(reason: "is not PEM: \(reason)")
            case .encrypted: throw .invalidSigningKey(reason: "is encrypted; provide an unencrypted PKCS#8 or SEC1 PEM")
            case .noKeyBlock: throw .invalidSigningKey(reason: "must be a PEM 'PRIVATE KEY' (PKCS#8) or 'EC PRIVATE KEY' (SEC1) block")
            case .notP256(let label): throw .invalidSigningKey(reason: "is not a valid P-256 \(label == "PRIVATE KEY" ? "PKCS#8" : "SEC1") key")
            }
        }
    }

    init(privateKey: P256.Signing.PrivateKey) {
        self.privateKey = privateKey
    }

    /// Generates a fresh random P-256 key.
    public static func generate() -> ReaderTokenSigningKey {
        ReaderTokenSigningKey(privateKey: P256.Signing.PrivateKey())
    }

    /// The public key as SPKI PEM (`BEGIN PUBLIC KEY`), the form uploaded to Apple Business Register.
    public var publicKeyPEM: String { privateKey.publicKey.pemRepresentation }

    /// The private key as PKCS#8 PEM (`BEGIN PRIVATE KEY`). Treat as secret.
    public var pkcs8PEM: String { privateKey.pemRepresentation }
}

extension ReaderTokenSigningKey: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "ReaderTokenSigningKey(P-256, <redacted>)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
