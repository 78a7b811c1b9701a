import CBOR
import Crypto
import Foundation
import Testing
import TestSupport
import X509
@testable import COSE

/// COSE against data nobody here made: ISO 18013-5 Annex D and Apple's sample.
@Suite(.enabled(if: Fixtures.sharedVectorsAvailable, "needs ../shared/vectors"))
struct AnnexDCOSETests {
    func dsKey() throws -> COSEPublicKey {
        let certificate = try Certificate(derEncoded: try Fixtures.annexD("ds_cert"))
        let key = try #require(P256.Signing.PublicKey(certificate.publicKey))
        return .p256(key)
    }

    func issuerAuth() throws -> COSESign1 {
        try COSESign1(bytes: try Fixtures.annexD("issuer_auth"))
    }

    @Test func issuerAuthVerifiesWithTheDSKey() throws {
        let sign1 = try issuerAuth()
        #expect(try sign1.headers.algorithm() == .es256)
        #expect(try sign1.headers.x5chain().map(Array.init) == [try Fixtures.annexD("ds_cert")])
        #expect(try sign1.signatureStructure() == (try Fixtures.annexD("issuer_sig_structure")))
        try sign1.verify(using: try dsKey())
    }

    @Test func deviceMacVerifiesWithEMacKey() throws {
        let deviceAuth = try CBORDecoder().decode(try Fixtures.annexD("device_auth"))
        let mac0 = try COSEMac0(item: try #require(deviceAuth["deviceMac"]))
        #expect(mac0.payload == nil)
        let payload = try Fixtures.annexD("device_authentication_bytes")
        #expect(try mac0.macStructure(detachedPayload: payload[...]) == (try Fixtures.annexD("device_mac_structure")))
        #expect(Array(mac0.tag) == (try Fixtures.annexD("device_mac_tag")))
        let key = SymmetricKey(data: try Fixtures.annexD("emac_key"))
        try mac0.verify(using: key, detachedPayload: payload[...])
    }

    @Test func deviceMacRejectsAWrongKeyOrPayload() throws {
        let deviceAuth = try CBORDecoder().decode(try Fixtures.annexD("device_auth"))
        let mac0 = try COSEMac0(item: try #require(deviceAuth["deviceMac"]))
        var payload = try Fixtures.annexD("device_authentication_bytes")
        var keyBytes = try Fixtures.annexD("emac_key")
        keyBytes[0] ^= 1
        #expect(throws: COSEError.tagInvalid) {
            try mac0.verify(using: SymmetricKey(data: keyBytes), detachedPayload: payload[...])
        }
        payload[payload.count - 1] ^= 1
        #expect(throws: COSEError.tagInvalid) {
            try mac0.verify(using: SymmetricKey(data: try Fixtures.annexD("emac_key")), detachedPayload: payload[...])
        }
        #expect(throws: COSEError.payloadMissing) {
            try mac0.verify(using: SymmetricKey(data: try Fixtures.annexD("emac_key")))
        }
    }

    /// Rebuilds `issuer_auth` with one part changed.
    func tampered(protected: [UInt8]? = nil, flipPayloadBit: Bool = false, signature: [UInt8]? = nil) throws -> COSESign1 {
        let original = try CBORDecoder().decode(try Fixtures.annexD("issuer_auth"))
        let parts = try #require(original.arrayValue)
        var payload = Array(try #require(parts[2].bytesValue))
        if flipPayloadBit { payload[payload.count / 2] ^= 0x01 }
        let originalProtected = Array(try #require(parts[0].bytesValue))
        let originalSignature = Array(try #require(parts[3].bytesValue))
        let rebuilt: CBOR = [
            .bytes(protected ?? originalProtected),
            parts[1].value,
            .bytes(payload),
            .bytes(signature ?? originalSignature),
        ]
        return try COSESign1(bytes: CBOREncoder().encode(rebuilt))
    }

    @Test func oneFlippedBitAnywhereFailsTheSignature() throws {
        let key = try dsKey()
        let signature = Array(try issuerAuth().signature)
        var flipped = signature
        flipped[10] ^= 0x80
        #expect(throws: COSEError.signatureInvalid) { try tampered(signature: flipped).verify(using: key) }
        #expect(throws: COSEError.signatureInvalid) { try tampered(flipPayloadBit: true).verify(using: key) }
        // {1: -7} with a flipped bit in a padding-free spot: a map {1: -7} re-encoded as {1: -8} (0x27).
        #expect(throws: COSEError.algorithmUnsupported(-8)) { try tampered(protected: [0xa1, 0x01, 0x27]).verify(using: key) }
        // Same alg, different protected bytes (non-preferred head for -7): the signature covers the bytes.
        #expect(throws: COSEError.signatureInvalid) {
            try tampered(protected: [0xa1, 0x01, 0x38, 0x06]).verify(using: key)
        }
    }

    @Test func wrongAlgorithmIsAnErrorNotAFallback() throws {
        let key = try dsKey()
        // ES384 on a P-256 key.
        #expect(throws: COSEError.algorithmKeyMismatch(algorithm: .es384, curve: .p256)) {
            try tampered(protected: [0xa1, 0x01, 0x38, 0x22]).verify(using: key)
        }
        // HMAC alg on a signature.
        #expect(throws: COSEError.algorithmUnsupported(5)) { try tampered(protected: [0xa1, 0x01, 0x05]).verify(using: key) }
        // No alg at all.
        #expect(throws: COSEError.algorithmMissing) { try tampered(protected: [0xa0]).verify(using: key) }
    }

    @Test func truncatedAndDERSignaturesAreRejected() throws {
        let key = try dsKey()
        let signature = Array(try issuerAuth().signature)
        #expect(throws: COSEError.signatureLengthInvalid(expected: 64, actual: 63)) {
            try tampered(signature: Array(signature.dropLast())).verify(using: key)
        }
        let der = Array(try P256.Signing.ECDSASignature(rawRepresentation: signature).derRepresentation)
        #expect(throws: COSEError.signatureLengthInvalid(expected: 64, actual: der.count)) {
            try tampered(signature: der).verify(using: key)
        }
    }

    @Test func structureErrorsAreReported() throws {
        #expect(throws: COSEError.self) { try COSESign1(bytes: [0x83, 0x40, 0xa0, 0xf6]) }
        #expect(throws: COSEError.self) { try COSESign1(bytes: [0xd1, 0x84, 0x40, 0xa0, 0xf6, 0x40]) }  // tag 17
        #expect(throws: COSEError.self) { try COSESign1(bytes: [0x84, 0x41, 0x00, 0xa0, 0xf6, 0x40]) }  // protected not a map
        #expect(throws: COSEError.self) { try COSESign1(bytes: [0x84, 0x43, 0xa1, 0x01, 0x26, 0xa1, 0x01, 0x26, 0xf6, 0x40]) }
        let tagged = try COSESign1(bytes: [0xd2, 0x84, 0x43, 0xa1, 0x01, 0x26, 0xa0, 0x41, 0x00, 0x40])
        #expect(tagged.payload.map(Array.init) == [0x00])
    }

    @Test func x5chainAsArrayInTheProtectedBucket() throws {
        let der = try Fixtures.annexD("ds_cert")
        let protected = CBOREncoder().encode(.map([.init(1, -7), .init(33, [.bytes(der), .bytes([1, 2])])]))
        let sign1 = try COSESign1(bytes: CBOREncoder().encode([.bytes(protected), .map([]), nil, .bytes([])]))
        #expect(try sign1.headers.x5chain().map(Array.init) == [der, [1, 2]])
    }
}

@Suite(.enabled(if: Fixtures.sharedVectorsAvailable, "needs ../shared/vectors"))
struct AppleSampleCOSETests {
    @Test func deviceSignatureVerifiesOverDeviceAuthenticationBytes() throws {
        let plaintext = try Fixtures.bytes(try Fixtures.appleSample("plaintext_topics.cbor"))
        let topics = try CBORDecoder().decode(plaintext)
        let document = try #require(topics["identity"]?["documents"]?.arrayValue?.first)
        let issuerAuth = try COSESign1(item: try #require(document["issuerSigned"]?["issuerAuth"]))
        let msoBytes = try #require(issuerAuth.payload)
        let msoTagged = try CBORDecoder().decode(msoBytes)
        let mso = try CBORDecoder().decode(try #require(msoTagged.tagged?.item.bytesValue))
        let deviceKey = try COSEKey(item: try #require(mso["deviceKeyInfo"]?["deviceKey"]))
        #expect(deviceKey.curve == .p256)

        let signatureItem = try #require(document["deviceSigned"]?["deviceAuth"]?["deviceSignature"])
        let deviceSignature = try COSESign1(item: signatureItem)
        let payload = try Fixtures.hexFile(try Fixtures.appleSample("device_authentication_bytes.derived.hex"))
        try deviceSignature.verify(using: deviceKey.publicKey, detachedPayload: payload[...])

        var wrong = payload
        wrong[100] ^= 0x01
        #expect(throws: COSEError.signatureInvalid) {
            try deviceSignature.verify(using: deviceKey.publicKey, detachedPayload: wrong[...])
        }
    }
}
