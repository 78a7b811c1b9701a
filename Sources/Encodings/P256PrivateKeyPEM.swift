import Crypto

/// A P-256 private key from PEM text: the first PKCS#8 (`BEGIN PRIVATE KEY`) or SEC1 (`BEGIN EC PRIVATE KEY`) block;
/// other blocks (`EC PARAMETERS`, certificates) are skipped. The one reader of the service's signing keys (reader
/// tokens, reader authentication); its problems never quote the input.
public enum P256PrivateKeyPEM {
    public enum Problem: Error, Sendable, Equatable {
        /// The text is not PEM (the reason says where).
        case notPEM(String)
        /// Only an encrypted key block was found.
        case encrypted
        /// No private key block.
        case noKeyBlock
        /// A key block that is not a P-256 key (`label` is its PEM label).
        case notP256(label: String)
    }

    public static func key(from pem: String) throws(Problem) -> P256.Signing.PrivateKey {
        let blocks: [PEMBlock]
        do { blocks = try PEM.blocks(in: pem) } catch { throw .notPEM("\(error)") }
        guard let block = blocks.first(where: { PEM.privateKeyLabels.contains($0.label) }) else {
            throw blocks.contains(where: { $0.label.contains("ENCRYPTED") }) ? .encrypted : .noKeyBlock
        }
        do { return try P256.Signing.PrivateKey(derRepresentation: block.bytes) } catch { throw .notP256(label: block.label) }
    }
}
