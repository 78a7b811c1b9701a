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
        let blocks: [PEMBlock]
        do {
            blocks = try PEM.blocks(in: pem)
        } catch {
            throw .invalidSigningKey(reason: "is not PEM: \(error)")
        }
        guard let block = blocks.first(where: { PEM.privateKeyLabels.contains($0.label) }) else {
            if blocks.contains(where: { $0.label.contains("ENCRYPTED") }) {
                throw .invalidSigningKey(reason: "is encrypted; provide an unencrypted PKCS#8 or SEC1 PEM")
            }
            throw .invalidSigningKey(reason: "must be a PEM 'PRIVATE KEY' (PKCS#8) or 'EC PRIVATE KEY' (SEC1) block")
        }
        do {
            privateKey = try P256.Signing.PrivateKey(derRepresentation: block.bytes)
        } catch {
            throw .invalidSigningKey(reason: "is not a valid P-256 \(block.label == "PRIVATE KEY" ? "PKCS#8" : "SEC1") key")
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
