import Crypto
import Encodings
import Foundation
import HPKEKeys
import X509

/// A merchant encryption private key (the HPKE recipient key), identified by `pkRHash`.
public struct MerchantEncryptionKey: Sendable {
    /// The key in the form HPKE takes, its public key serialized once.
    public let hpkeKey: HPKERecipientKey
    /// The private key itself.
    public var privateKey: P256.KeyAgreement.PrivateKey { hpkeKey.key }
    /// SHA-256 of the public key's 65-byte uncompressed point (`04 || X || Y`), not of its SPKI DER.
    public let pkRHash: [UInt8]
    /// A name for logs and listings (e.g. the file name); never the key itself.
    public let label: String

    public init(privateKey: P256.KeyAgreement.PrivateKey, label: String) {
        self.hpkeKey = HPKERecipientKey(privateKey)
        self.pkRHash = Array(SHA256.hash(data: hpkeKey.publicKey.x963Representation))
        self.label = label
    }

    /// Reads a PEM file's text: a SEC1 `EC PRIVATE KEY` or PKCS#8 `PRIVATE KEY` block, optionally next to the
    /// merchant encryption certificate (which, when present, must hold the same public key).
    public init(pem: String, label: String) throws(AppleWalletError) {
        let blocks: [PEMBlock]
        do {
            blocks = try PEM.blocks(in: pem)
        } catch {
            throw AppleWalletError(.recipientKeyUnknown, "\(label): not PEM: \(error)")
        }
        guard let keyBlock = blocks.first(where: { PEM.privateKeyLabels.contains($0.label) }) else {
            throw AppleWalletError(.recipientKeyUnknown, "\(label): no EC PRIVATE KEY or PRIVATE KEY block")
        }
        let key: P256.KeyAgreement.PrivateKey
        do {
            key = try P256.KeyAgreement.PrivateKey(derRepresentation: keyBlock.bytes)
        } catch {
            throw AppleWalletError(.recipientKeyUnknown, "\(label): not a P-256 private key")
        }
        for block in blocks where block.label == "CERTIFICATE" {
            guard let certificate = try? Certificate(derEncoded: block.bytes) else {
                throw AppleWalletError(.recipientKeyUnknown,
                                       "\(label): PEM block \(block.index) (CERTIFICATE, line \(block.line)) is not a DER X.509 certificate")
            }
            guard let certificateKey = P256.Signing.PublicKey(certificate.publicKey),
                  certificateKey.x963Representation == key.publicKey.x963Representation
            else {
                throw AppleWalletError(.recipientKeyUnknown, "\(label): the certificate does not hold this private key's public key")
            }
        }
        self.init(privateKey: key, label: label)
    }
}
