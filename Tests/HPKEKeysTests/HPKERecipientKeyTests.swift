import Crypto
import Foundation
import HPKEKeys
import Testing

/// The merchant key's HPKE form keeps swift-crypto's results: the same plaintext and the same key schedule
/// (exporter secrets) as `P256.KeyAgreement.PrivateKey` used directly, and the same refusals.
struct HPKERecipientKeyTests {
    static let suite = HPKE.Ciphersuite(kem: .P256_HKDF_SHA256, kdf: .HKDF_SHA256, aead: .AES_GCM_128)

    @Test func opensWhatSwiftCryptoSealsWithTheSameKeySchedule() throws {
        for round in 0..<20 {
            let key = P256.KeyAgreement.PrivateKey()
            let info = Data("info \(round)".utf8)
            var sender = try HPKE.Sender(recipientKey: key.publicKey, ciphersuite: Self.suite, info: info)
            let message = Data((0..<(round * 13)).map { UInt8(truncatingIfNeeded: $0) })
            let sealed = try sender.seal(message, authenticating: Data([UInt8(round)]))

            var plain = try HPKE.Recipient(privateKey: key, ciphersuite: Self.suite, info: info,
                                           encapsulatedKey: sender.encapsulatedKey)
            var ours = try HPKE.Recipient(privateKey: HPKERecipientKey(key), ciphersuite: Self.suite, info: info,
                                          encapsulatedKey: sender.encapsulatedKey)
            #expect(try ours.open(sealed, authenticating: Data([UInt8(round)])) == message)
            #expect(try plain.open(sealed, authenticating: Data([UInt8(round)])) == message)
            let context = Data("exporter".utf8)
            #expect(try ours.exportSecret(context: context, outputByteCount: 32)
                    == plain.exportSecret(context: context, outputByteCount: 32))
        }
    }

    @Test func refusesWhatSwiftCryptoRefuses() throws {
        let key = P256.KeyAgreement.PrivateKey()
        var sender = try HPKE.Sender(recipientKey: key.publicKey, ciphersuite: Self.suite, info: Data("a".utf8))
        let sealed = try sender.seal(Data("secret".utf8))
        // Another info (the transcript): the tag does not verify.
        var otherInfo = try HPKE.Recipient(privateKey: HPKERecipientKey(key), ciphersuite: Self.suite,
                                           info: Data("b".utf8), encapsulatedKey: sender.encapsulatedKey)
        #expect(throws: (any Error).self) { try otherInfo.open(sealed) }
        // Another recipient key.
        var otherKey = try HPKE.Recipient(privateKey: HPKERecipientKey(P256.KeyAgreement.PrivateKey()),
                                          ciphersuite: Self.suite, info: Data("a".utf8),
                                          encapsulatedKey: sender.encapsulatedKey)
        #expect(throws: (any Error).self) { try otherKey.open(sealed) }
        // An `enc` that is not a point on P-256, or not 65 bytes.
        var offCurve = Array(sender.encapsulatedKey)
        offCurve[64] ^= 1
        for enc in [Data(offCurve), sender.encapsulatedKey.dropLast(), Data()] {
            #expect(throws: (any Error).self) {
                _ = try HPKE.Recipient(privateKey: HPKERecipientKey(key), ciphersuite: Self.suite, info: Data("a".utf8),
                                       encapsulatedKey: enc)
            }
        }
        // Another KEM than DHKEM(P-256).
        let x25519 = HPKE.Ciphersuite(kem: .Curve25519_HKDF_SHA256, kdf: .HKDF_SHA256, aead: .AES_GCM_128)
        #expect(throws: (any Error).self) {
            _ = try HPKE.Recipient(privateKey: HPKERecipientKey(key), ciphersuite: x25519, info: Data("a".utf8),
                                   encapsulatedKey: sender.encapsulatedKey)
        }
        #expect(throws: (any Error).self) { _ = try HPKEPeerKey(sender.encapsulatedKey, kem: .P384_HKDF_SHA384) }
    }

    @Test func serializesLikeSwiftCrypto() throws {
        let key = P256.KeyAgreement.PrivateKey()
        let ours = HPKERecipientKey(key)
        #expect(try ours.publicKey.hpkeRepresentation(kem: .P256_HKDF_SHA256)
                == key.publicKey.hpkeRepresentation(kem: .P256_HKDF_SHA256))
        #expect(throws: (any Error).self) { _ = try ours.publicKey.hpkeRepresentation(kem: .P521_HKDF_SHA512) }
        // A key read from bytes serializes back to the same bytes.
        let bytes = key.publicKey.x963Representation
        #expect(try HPKEPeerKey(bytes, kem: .P256_HKDF_SHA256).hpkeRepresentation(kem: .P256_HKDF_SHA256) == bytes)
        // The sender side's ephemeral keys work too, so the type is a whole HPKE key type, not half of one.
        var sender = try HPKE.Sender(recipientKey: ours.publicKey, ciphersuite: Self.suite, info: Data())
        let sealed = try sender.seal(Data("x".utf8))
        var recipient = try HPKE.Recipient(privateKey: key, ciphersuite: Self.suite, info: Data(),
                                           encapsulatedKey: sender.encapsulatedKey)
        #expect(try recipient.open(sealed) == Data("x".utf8))
    }
}
