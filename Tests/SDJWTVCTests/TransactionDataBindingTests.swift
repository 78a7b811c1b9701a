import Foundation
import MDoc
import SDJWT
import SDJWTVC
import StrictJSON
import TestSupport
import Testing

/// `sdjwt.transactionData` on its own: the KB-JWT's `transaction_data_hashes` against the entries addressed to one
/// credential. The two entries and their digests were made with Python's `json` and `hashlib` (compact JSON,
/// base64url without padding, each digest over the base64url string itself), not by verifierd.
struct TransactionDataBindingTests {
    static let payment = "eyJ0eXBlIjoidXJuOmV1ZGk6c2NhOnBheW1lbnQ6MSIsImNyZWRlbnRpYWxfaWRzIjpbInBpZCJdLCJ0cmFuc2FjdGlvbl9kYXRhX2hhc2hlc19hbGciOlsic2hhLTI1NiIsInNoYS0zODQiXSwicGF5bG9hZCI6eyJ0cmFuc2FjdGlvbl9pZCI6IjhEOEFDNjEwLTU2NkQtNEVGMC05QzIyLTE4NkIyQTVFRDc5MyIsInBheWVlIjp7Im5hbWUiOiJTaG9wIiwiaWQiOiJERTEyMyJ9LCJjdXJyZW5jeSI6IkVVUiIsImFtb3VudCI6MjMuNX19"
    static let paymentSHA256 = "kMKqMRgkYANFIGkLzEBFmxB8iRJDMpfc1RW4M1Ylbys"
    static let paymentSHA384 = "3QA2usKPoqS6Owtrs_bLHg805nwM8uZ6Fh0Sn5aJx82uUj-CS-3fAaXJmLcfxCFq"
    static let paymentSHA512 = "nP_4HCAH63UwuBP1rxOTQlyYWuE_ZG-OLU0oL75yJMngM6u8-E9uF4BnnQQPLeDWxaqK48jNX6F18PgSdAgGww"
    static let signing = "eyJ0eXBlIjoicWVzX2F1dGhvcml6YXRpb24iLCJjcmVkZW50aWFsX2lkcyI6WyJwaWQiXSwiZG9jdW1lbnREaWdlc3RzIjpbeyJsYWJlbCI6ImNvbnRyYWN0LnBkZiIsImhhc2giOiJhR0Z6YUEiLCJoYXNoQWxnb3JpdGhtT0lEIjoiMi4xNi44NDAuMS4xMDEuMy40LjIuMSJ9XX0"
    static let signingSHA256 = "Q7GhqtjbOpvHjw6EowJHCu3oCsCW9XyOmoUgK2zpXRU"
    static let signingSHA384 = "LxRIsfdv2xTbVmMxno4-SpWMSpK4tZ8UHVbQPLzfNi7_iTNlaXjebb3UlcDXWhzg"

    /// The payment offers sha-256 and sha-384; the signing request offers nothing (sha-256 only).
    static func expectation(paymentRequired: Bool = true, signingRequired: Bool = true, objects: Bool = false) -> TransactionDataExpectation {
        TransactionDataExpectation(entries: [
            .init(index: 0, encoded: payment, type: "urn:eudi:sca:payment:1", hashAlgorithms: [.sha256, .sha384], required: paymentRequired),
            .init(index: 1, encoded: signing, type: "qes_authorization", hashAlgorithms: nil, required: signingRequired),
        ], reportsObjects: objects)
    }

    static func binding(_ hashes: JSON?, alg: JSON? = nil) -> KeyBindingVerifier.Verified {
        KeyBindingVerifier.Verified(issuedAt: Date(timeIntervalSince1970: 0), nonce: "n", audience: "a",
                                    transactionDataHashes: hashes, transactionDataHashesAlgorithm: alg)
    }

    static func strings(_ items: String...) -> JSON { .array(items.map { .string($0) }) }

    @Test func theHashesOfEveryEntryInOrderApproveThem() {
        let (result, approved) = TransactionDataBindingCheck.evaluate(Self.expectation(), keyBinding: Self.binding(
            Self.strings(Self.paymentSHA256, Self.signingSHA256), alg: .string("sha-256")))
        #expect(result.status == .passed)
        #expect(approved.map(\.index) == [0, 1])
        #expect(approved.map(\.hash) == [Self.paymentSHA256, Self.signingSHA256])
        #expect(approved.allSatisfy { $0.hashAlgorithm == .sha256 && $0.object == nil })
    }

    @Test func theAlgorithmNeedNotBeNamedWhenNoEntryOfferedAList() {
        let expectation = TransactionDataExpectation(entries: [
            .init(index: 1, encoded: Self.signing, type: "qes_authorization", hashAlgorithms: nil, required: true),
        ])
        let (result, approved) = TransactionDataBindingCheck.evaluate(expectation, keyBinding: Self.binding(Self.strings(Self.signingSHA256)))
        #expect(result.status == .passed)
        #expect(approved.first?.index == 1)
        // Named, sha-256 is fine too; sha-384 was not offered.
        #expect(TransactionDataBindingCheck.evaluate(expectation, keyBinding: Self.binding(Self.strings(Self.signingSHA256), alg: .string("sha-256"))).0.status == .passed)
        #expect(TransactionDataBindingCheck.evaluate(expectation, keyBinding: Self.binding(Self.strings(Self.signingSHA384), alg: .string("sha-384"))).0.code?.rawValue
                == "TRANSACTION_DATA_HASH_ALG_NOT_OFFERED")
    }

    @Test func anOfferedAlgorithmOtherThanSHA256Verifies() {
        let expectation = TransactionDataExpectation(entries: [
            .init(index: 0, encoded: Self.payment, type: "urn:eudi:sca:payment:1", hashAlgorithms: [.sha256, .sha384], required: true),
        ], reportsObjects: true)
        let (result, approved) = TransactionDataBindingCheck.evaluate(expectation, keyBinding: Self.binding(Self.strings(Self.paymentSHA384), alg: .string("sha-384")))
        #expect(result.status == .passed)
        #expect(approved.first?.hashAlgorithm == .sha384)
        // The decoded object, for a caller who asked for objects.
        #expect(approved.first?.object?[member: "type"]?.stringValue == "urn:eudi:sca:payment:1")
        #expect(approved.first?.object?[member: "payload"]?[member: "currency"]?.stringValue == "EUR")
    }

    @Test(arguments: [
        // (hashes, alg, code)
        (JSON?.none, JSON?.some(.string("sha-256")), "TRANSACTION_DATA_HASH_MISSING"),
        (.some(strings(paymentSHA256)), .some(.string("sha-256")), "TRANSACTION_DATA_HASH_MISSING"),
        (.some(strings(signingSHA256, paymentSHA256)), .some(.string("sha-256")), "TRANSACTION_DATA_HASH_ORDER"),
        (.some(strings(paymentSHA256, paymentSHA256, signingSHA256)), .some(.string("sha-256")), "TRANSACTION_DATA_HASH_DUPLICATE"),
        (.some(strings(paymentSHA256, signingSHA256, "AAAA")), .some(.string("sha-256")), "TRANSACTION_DATA_HASH_UNKNOWN"),
        // A digest of the string with another algorithm than the one named.
        (.some(strings(paymentSHA512, signingSHA256)), .some(.string("sha-256")), "TRANSACTION_DATA_HASH_UNKNOWN"),
        // sha-512 was offered by neither entry; sha-384 not by the signing request.
        (.some(strings(paymentSHA512)), .some(.string("sha-512")), "TRANSACTION_DATA_HASH_ALG_NOT_OFFERED"),
        (.some(strings(paymentSHA384, signingSHA384)), .some(.string("sha-384")), "TRANSACTION_DATA_HASH_ALG_NOT_OFFERED"),
        // Required because the payment offered a list; a list (as one wallet sends it) is not a string.
        (.some(strings(paymentSHA256, signingSHA256)), nil, "TRANSACTION_DATA_HASH_ALG_NOT_OFFERED"),
        (.some(strings(paymentSHA256, signingSHA256)), .some(.array([.string("sha-256")])), "TRANSACTION_DATA_HASH_ALG_NOT_OFFERED"),
        (.some(.array([])), .some(.string("sha-256")), "TRANSACTION_DATA_HASHES_MALFORMED"),
        (.some(.string(paymentSHA256)), .some(.string("sha-256")), "TRANSACTION_DATA_HASHES_MALFORMED"),
        (.some(.array([.int(1)])), .some(.string("sha-256")), "TRANSACTION_DATA_HASHES_MALFORMED"),
        (.some(strings("not base64url!")), .some(.string("sha-256")), "TRANSACTION_DATA_HASHES_MALFORMED"),
    ] as [(JSON?, JSON?, String)])
    func everyDepartureFailsWithItsCode(hashes: JSON?, alg: JSON?, code: String) {
        let (result, approved) = TransactionDataBindingCheck.evaluate(Self.expectation(), keyBinding: Self.binding(hashes, alg: alg))
        #expect(result.status == .failed)
        #expect(result.code?.rawValue == code, "\(result.detail ?? "")")
        #expect(approved.isEmpty)
    }

    /// The payment re-encoded (members reordered, or spaces): the same object, another string, so another digest.
    @Test func aReEncodedEntryIsNotApproved() throws {
        let decoded = try #require(Base64URLText.decode(Self.payment))
        let spaced = Array(String(decoding: decoded, as: UTF8.self).replacingOccurrences(of: ",", with: ", ").utf8)
        let reEncoded = TransactionDataHashAlgorithm.sha256.digest(Array(Base64URLText.encode(spaced).utf8))
        let (result, _) = TransactionDataBindingCheck.evaluate(Self.expectation(signingRequired: false), keyBinding: Self.binding(
            Self.strings(Base64URLText.encode(reEncoded)), alg: .string("sha-256")))
        #expect(result.code?.rawValue == "TRANSACTION_DATA_HASH_UNKNOWN")
    }

    @Test func anEntryOthersMayApproveIsNotRequiredHere() {
        let (result, approved) = TransactionDataBindingCheck.evaluate(Self.expectation(paymentRequired: false), keyBinding: Self.binding(
            Self.strings(Self.signingSHA256), alg: .string("sha-256")))
        #expect(result.status == .passed)
        #expect(approved.map(\.index) == [1])
    }

    @Test func hashesWhenNothingWasAddressedFail() {
        let (result, _) = TransactionDataBindingCheck.evaluate(nil, keyBinding: Self.binding(Self.strings(Self.paymentSHA256)))
        #expect(result.code?.rawValue == "TRANSACTION_DATA_HASH_UNKNOWN")
        let (empty, _) = TransactionDataBindingCheck.evaluate(TransactionDataExpectation(entries: []), keyBinding: Self.binding(nil, alg: .string("sha-256")))
        #expect(empty.code?.rawValue == "TRANSACTION_DATA_HASH_UNKNOWN")
        let (none, _) = TransactionDataBindingCheck.evaluate(nil, keyBinding: Self.binding(nil))
        #expect(none.status == .notApplicable)
    }

    @Test func withoutAVerifiedKBJWTNothingIsApproved() {
        let (result, approved) = TransactionDataBindingCheck.evaluate(Self.expectation(), keyBinding: nil)
        #expect(result.status == .notApplicable)
        #expect(approved.isEmpty)
    }

    /// OpenID4VP 1.0's own KB-JWT example (B.3.6), read as published: its `transaction_data_hashes` approve the string
    /// whose SHA-256 it is (TestVectors/sdjwt-spec/openid4vp-transaction-data-hash.json says where that string is
    /// printed), hashed as received, without an algorithm named.
    @Test func theSpecificationsKBJWTExampleApprovesTheStringItHashes() throws {
        let folder = Fixtures.testVectors.appendingPathComponent("sdjwt-spec")
        let vector = try JSONParser.parse(Array(try Data(contentsOf: folder.appendingPathComponent("openid4vp-transaction-data-hash.json"))))
        let example = try JSONParser.parse(Array(try Data(contentsOf: folder.appendingPathComponent("openid4vp-1.0/response/kb_jwt_unsecured.json"))))
        let hashed = try #require(vector[member: "hashedString"]?.stringValue)
        let expectation = TransactionDataExpectation(entries: [.init(index: 0, encoded: hashed, type: "example_type", hashAlgorithms: nil, required: true)])
        let (result, approved) = TransactionDataBindingCheck.evaluate(expectation, keyBinding: Self.binding(
            example[member: "transaction_data_hashes"], alg: example[member: "transaction_data_hashes_alg"]))
        #expect(result.status == .passed)
        #expect(approved.first?.hash == vector[member: "transactionDataHash"]?.stringValue)
        // Decoded and hashed again it is another string, so no approval.
        let decoded = try #require(Base64URLText.decode(hashed))
        let other = TransactionDataExpectation(entries: [.init(index: 0, encoded: Base64URLText.encode(Array(String(decoding: decoded, as: UTF8.self).replacingOccurrences(of: ", ", with: ",").utf8)),
                                                               type: "example_type", hashAlgorithms: nil, required: true)])
        #expect(TransactionDataBindingCheck.evaluate(other, keyBinding: Self.binding(example[member: "transaction_data_hashes"])).0.status == .failed)
    }

    @Test func theAlgorithmsDigestAsPythonsHashlib() {
        #expect(Base64URLText.encode(TransactionDataHashAlgorithm.sha256.digest(Array(Self.payment.utf8))) == Self.paymentSHA256)
        #expect(Base64URLText.encode(TransactionDataHashAlgorithm.sha384.digest(Array(Self.payment.utf8))) == Self.paymentSHA384)
        #expect(Base64URLText.encode(TransactionDataHashAlgorithm.sha512.digest(Array(Self.payment.utf8))) == Self.paymentSHA512)
    }
}

/// base64url without padding, written here for the tests (not verifierd's encoder).
enum Base64URLText {
    static func encode(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func decode(_ text: String) -> [UInt8]? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64).map(Array.init)
    }
}
