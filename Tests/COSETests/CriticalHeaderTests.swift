import CBOR
import Crypto
import Testing
@testable import COSE

/// RFC 9052 section 3.1: `crit` lists header labels the recipient must understand.
struct CriticalHeaderTests {
    static let key = P256.Signing.PrivateKey()
    static let payload: [UInt8] = Array("payload".utf8)

    /// A COSE_Sign1 signed over `protected`, with `unprotected` beside it.
    static func signed(protected: [CBOR.Pair], unprotected: [CBOR.Pair] = []) throws -> COSESign1 {
        let protectedBytes = CBOREncoder().encode(.map(protected))
        let toSign = CBOREncoder().encode(["Signature1", .bytes(protectedBytes), .bytes([]), .bytes(payload)])
        let signature = try key.signature(for: toSign).rawRepresentation
        let message = CBOREncoder().encode(
            [.bytes(protectedBytes), .map(unprotected), .bytes(payload), .bytes(Array(signature))])
        return try COSESign1(bytes: message)
    }

    static func mac0(protected: [CBOR.Pair], macKey: SymmetricKey) throws -> COSEMac0 {
        let protectedBytes = CBOREncoder().encode(.map(protected))
        let toMAC = CBOREncoder().encode(["MAC0", .bytes(protectedBytes), .bytes([]), .bytes(payload)])
        let tag = Array(HMAC<SHA256>.authenticationCode(for: toMAC, using: macKey))
        let message = CBOREncoder().encode([.bytes(protectedBytes), .map([]), .bytes(payload), .bytes(tag)])
        return try COSEMac0(item: try CBORDecoder().decode(message))
    }

    var publicKey: COSEPublicKey { .p256(Self.key.publicKey) }

    @Test func critListingUnderstoodLabelsVerifies() throws {
        let sign1 = try Self.signed(protected: [.init(1, -7), .init(2, [4]), .init(4, .bytes([1, 2]))])
        try sign1.verify(using: publicKey)
    }

    @Test func signatureWithoutCritVerifies() throws {
        try Self.signed(protected: [.init(1, -7)]).verify(using: publicKey)
    }

    @Test func critListingAnUnknownLabelFailsTheSignature() throws {
        let sign1 = try Self.signed(protected: [.init(1, -7), .init(2, [99]), .init(99, "x")])
        #expect(throws: COSEError.criticalHeaderInvalid("label 99 is not understood")) { try sign1.verify(using: publicKey) }
    }

    @Test func critListingAnUnknownTextLabelFails() throws {
        let sign1 = try Self.signed(protected: [.init(1, -7), .init(2, ["ext"]), .init("ext", 1)])
        #expect(throws: COSEError.self) { try sign1.verify(using: publicKey) }
    }

    @Test func critMustBeInTheProtectedBucket() throws {
        let sign1 = try Self.signed(protected: [.init(1, -7)], unprotected: [.init(2, [99]), .init(99, "x")])
        #expect(throws: COSEError.criticalHeaderInvalid("crit is in the unprotected bucket")) {
            try sign1.verify(using: publicKey)
        }
    }

    @Test func critMustBeANonEmptyArray() throws {
        let empty = try Self.signed(protected: [.init(1, -7), .init(2, [])])
        #expect(throws: COSEError.criticalHeaderInvalid("crit is not a non-empty array")) {
            try empty.verify(using: publicKey)
        }
        let scalar = try Self.signed(protected: [.init(1, -7), .init(2, 4), .init(4, .bytes([1]))])
        #expect(throws: COSEError.self) { try scalar.verify(using: publicKey) }
    }

    @Test func critListingALabelThatIsNotProtectedFails() throws {
        let sign1 = try Self.signed(protected: [.init(1, -7), .init(2, [4])], unprotected: [.init(4, .bytes([1]))])
        #expect(throws: COSEError.self) { try sign1.verify(using: publicKey) }
    }

    @Test func macWithUnknownCriticalLabelFails() throws {
        let macKey = SymmetricKey(size: .bits256)
        try Self.mac0(protected: [.init(1, 5)], macKey: macKey).verify(using: macKey)
        let bad = try Self.mac0(protected: [.init(1, 5), .init(2, [99]), .init(99, "x")], macKey: macKey)
        #expect(throws: COSEError.criticalHeaderInvalid("label 99 is not understood")) { try bad.verify(using: macKey) }
    }
}
