import Crypto
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
        let blocks = PEMBlock.parseAll(pem)
        guard let block = blocks.first(where: { $0.label == "PRIVATE KEY" || $0.label == "EC PRIVATE KEY" }) else {
            if blocks.contains(where: { $0.label.contains("ENCRYPTED") }) {
                throw .invalidSigningKey(reason: "is encrypted; provide an unencrypted PKCS#8 or SEC1 PEM")
            }
            throw .invalidSigningKey(reason: "must be a PEM 'PRIVATE KEY' (PKCS#8) or 'EC PRIVATE KEY' (SEC1) block")
        }
        do {
            privateKey = try P256.Signing.PrivateKey(pemRepresentation: block.normalizedText)
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

/// One `-----BEGIN X----- ... -----END X-----` block of a PEM file.
struct PEMBlock {
    let label: String
    let base64Lines: [Substring]

    /// The block re-serialized with trimmed lines and LF line endings.
    var normalizedText: String {
        // swift-crypto requires 64-character body lines; re-wrap whatever we were given.
        let body = base64Lines.joined()
        var lines = ["-----BEGIN \(label)-----"]
        var index = body.startIndex
        while index < body.endIndex {
            let end = body.index(index, offsetBy: 64, limitedBy: body.endIndex) ?? body.endIndex
            lines.append(String(body[index..<end]))
            index = end
        }
        lines.append("-----END \(label)-----")
        return lines.joined(separator: "\n")
    }

    static func parseAll(_ text: String) -> [PEMBlock] {
        var result: [PEMBlock] = []
        var label: String?
        var body: [Substring] = []
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("-----BEGIN "), line.hasSuffix("-----") {
                label = String(line.dropFirst(11).dropLast(5))
                body = []
            } else if line.hasPrefix("-----END "), line.hasSuffix("-----") {
                if let current = label, String(line.dropFirst(9).dropLast(5)) == current {
                    result.append(PEMBlock(label: current, base64Lines: body))
                }
                label = nil
            } else if label != nil, !line.isEmpty {
                body.append(Substring(line))
            }
        }
        return result
    }
}
