import Crypto
import Foundation

/// A P-256 recipient key in the shape swift-crypto's HPKE takes, with its public key serialized once.
///
/// HPKE (RFC 9180, DHKEM P-256) puts the recipient's serialized public key `pkRm` into the key schedule. With
/// `P256.KeyAgreement.PrivateKey` itself, swift-crypto derives and serializes that public key twice per `open`
/// (each an affine conversion with a field inversion, about 3% of a whole Apple verification). This type only keeps
/// the serialization; the Diffie-Hellman step, the key schedule and the AEAD stay swift-crypto's. Made once per
/// merchant key (Apple) or per opened answer (web, where it still saves one of the two).
public struct HPKERecipientKey: HPKEDiffieHellmanPrivateKeyGeneration {
    public let key: P256.KeyAgreement.PrivateKey
    public let publicKey: HPKEPeerKey

    public init(_ key: P256.KeyAgreement.PrivateKey) {
        self.key = key
        self.publicKey = HPKEPeerKey(key.publicKey)
    }

    /// A fresh key: what HPKE's sender side asks of its ephemeral key type.
    public init() {
        self.init(P256.KeyAgreement.PrivateKey())
    }

    public func sharedSecretFromKeyAgreement(with publicKeyShare: HPKEPeerKey) throws -> SharedSecret {
        try key.sharedSecretFromKeyAgreement(with: publicKeyShare.key)
    }
}

/// A P-256 public key for ``HPKERecipientKey``: parsed as swift-crypto parses HPKE's `enc`, serialized as it does.
public struct HPKEPeerKey: HPKEDiffieHellmanPublicKey {
    public typealias EphemeralPrivateKey = HPKERecipientKey

    public let key: P256.KeyAgreement.PublicKey
    /// The uncompressed point, kept for a key of our own; a key read from `enc` is serialized when asked (HPKE's
    /// decapsulation uses the `enc` bytes themselves, so it never asks).
    private let serialization: Data?

    public init(_ key: P256.KeyAgreement.PublicKey) {
        self.key = key
        self.serialization = key.x963Representation
    }

    public init<D: ContiguousBytes>(_ serialization: D, kem: HPKE.KEM) throws {
        try Self.check(kem)
        self.key = try P256.KeyAgreement.PublicKey(x963Representation: serialization)
        self.serialization = nil
    }

    /// The uncompressed point `04 || X || Y`: HPKE's serialization of a DHKEM(P-256) key.
    public var x963Representation: Data { serialization ?? key.x963Representation }

    public func hpkeRepresentation(kem: HPKE.KEM) throws -> Data {
        try Self.check(kem)
        return x963Representation
    }

    private static func check(_ kem: HPKE.KEM) throws {
        guard kem == .P256_HKDF_SHA256 else { throw HPKE.Errors.inconsistentCiphersuiteAndKey }
    }
}
