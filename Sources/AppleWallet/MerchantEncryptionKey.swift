import Crypto
import Foundation
import HPKEKeys
import SwiftASN1
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
        let documents: [PEMDocument]
        do {
            documents = try PEMDocument.parseMultiple(pemString: pem)
        } catch {
            throw AppleWalletError(.recipientKeyUnknown, "\(label): not PEM")
        }
        guard let keyDocument = documents.first(where: { ["EC PRIVATE KEY", "PRIVATE KEY"].contains($0.discriminator) })
        else {
            throw AppleWalletError(.recipientKeyUnknown, "\(label): no EC PRIVATE KEY or PRIVATE KEY block")
        }
        let key: P256.KeyAgreement.PrivateKey
        do {
            key = try P256.KeyAgreement.PrivateKey(pemRepresentation: keyDocument.pemString)
        } catch {
            throw AppleWalletError(.recipientKeyUnknown, "\(label): not a P-256 private key")
        }
        for document in documents where document.discriminator == "CERTIFICATE" {
            guard let certificate = try? Certificate(derEncoded: document.derBytes),
                  let certificateKey = P256.Signing.PublicKey(certificate.publicKey),
                  certificateKey.x963Representation == key.publicKey.x963Representation
            else {
                throw AppleWalletError(.recipientKeyUnknown, "\(label): the certificate does not hold this private key's public key")
            }
        }
        self.init(privateKey: key, label: label)
    }
}
