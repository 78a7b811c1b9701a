import CBOR
import Crypto
import Encodings
import Foundation
import Testing
@testable import WebPresentment

/// What the browser sends back, and the origins and keys we accept, read strictly.
struct ParsingStrictnessTests {
    static let point = Array(P256.KeyAgreement.PrivateKey().publicKey.x963Representation)

    static func encode(_ value: CBOR) -> [UInt8] { CBOREncoder().encode(value) }

    @Test func aWellFormedResponseParses() throws {
        let bytes = Self.encode(["dcapi", .map([.init("enc", .bytes(Self.point)), .init("cipherText", .bytes([UInt8](repeating: 1, count: 40)))])])
        let response = try DCAPIEncryptedResponse(bytes: bytes)
        #expect(response.enc == Self.point)
        #expect(response.cipherText.count == 40)
        // Key order does not matter.
        let swapped = Self.encode(["dcapi", .map([.init("cipherText", .bytes([UInt8](repeating: 1, count: 16))), .init("enc", .bytes(Self.point))])])
        #expect(throws: Never.self) { try DCAPIEncryptedResponse(bytes: swapped) }
        #expect(throws: Never.self) { try DCAPIEncryptedResponse(base64URL: Base64URL.encode(bytes)) }
    }

    static let malformed: [(String, [UInt8])] = [
        ("empty", []),
        ("not an array", encode(.map([]))),
        ("three elements", encode(["dcapi", .map([]), 1])),
        ("wrong type", encode(["openid4vp", .map([.init("enc", .bytes(point)), .init("cipherText", .bytes([UInt8](repeating: 0, count: 16)))])])),
        ("extra key", encode(["dcapi", .map([.init("enc", .bytes(point)), .init("cipherText", .bytes([UInt8](repeating: 0, count: 16))), .init("x", 1)])])),
        ("missing cipherText", encode(["dcapi", .map([.init("enc", .bytes(point))])])),
        ("short ciphertext", encode(["dcapi", .map([.init("enc", .bytes(point)), .init("cipherText", .bytes([UInt8](repeating: 0, count: 15)))])])),
        ("compressed enc", encode(["dcapi", .map([.init("enc", .bytes([0x02] + point[1..<33])), .init("cipherText", .bytes([UInt8](repeating: 0, count: 16)))])])),
        ("enc off the curve", encode(["dcapi", .map([.init("enc", .bytes([0x04] + [UInt8](repeating: 1, count: 64))), .init("cipherText", .bytes([UInt8](repeating: 0, count: 16)))])])),
        ("enc as text", encode(["dcapi", .map([.init("enc", "04"), .init("cipherText", .bytes([UInt8](repeating: 0, count: 16)))])])),
        ("trailing bytes", encode(["dcapi", .map([.init("enc", .bytes(point)), .init("cipherText", .bytes([UInt8](repeating: 0, count: 16)))])]) + [0]),
        ("duplicate key", [0x82, 0x65] + Array("dcapi".utf8) + [0xa2, 0x63] + Array("enc".utf8) + [0x41, 0x00, 0x63] + Array("enc".utf8) + [0x41, 0x00]),
    ]

    @Test(arguments: malformed.map(\.0))
    func malformedResponsesAreRefused(name: String) throws {
        let bytes = try #require(Self.malformed.first { $0.0 == name }?.1)
        do {
            _ = try DCAPIEncryptedResponse(bytes: bytes)
            Issue.record("\(name) was accepted")
        } catch {
            #expect(error.code == .envelopeMalformed)
        }
    }

    @Test func base64WithPaddingOrTheStandardAlphabetIsRefused() {
        let bytes = Self.encode(["dcapi", .map([.init("enc", .bytes(Self.point)), .init("cipherText", .bytes([UInt8](repeating: 0xfb, count: 17)))])])
        let url = Base64URL.encode(bytes)
        #expect(throws: WebPresentmentError.self) { try DCAPIEncryptedResponse(base64URL: url + "=") }
        #expect(throws: WebPresentmentError.self) { try DCAPIEncryptedResponse(base64URL: Data(bytes).base64EncodedString()) }
        #expect(throws: WebPresentmentError.self) { try DCAPIEncryptedResponse(base64URL: String(repeating: "A", count: 6 << 20)) }
    }

    @Test(arguments: [
        ("https://shop.example", true), ("http://localhost:8080", true), ("https://a.b.c:8443", true),
        ("https://[::1]:8443", true), ("https://xn--bcher-kva.example", true),
        ("https://shop.example/", false), ("https://Shop.example", false), ("https://shop.example:443", false),
        ("http://shop.example:80", false), ("https://shop.example:0443", false), ("https://shop.example:65536", false),
        ("https://user@shop.example", false), ("https://shop.example/path", false), ("https://shop.example?q", false),
        ("ftp://shop.example", false), ("shop.example", false), ("https://", false), ("https://shop..example", false),
        ("https://shop.example.", false), ("https://shop.example#x", false), ("null", false), ("https://shop.example:", false),
    ])
    func serializedOrigins(text: String, valid: Bool) {
        #expect((SerializedOrigin(text) != nil) == valid)
    }

    @Test func encryptionInfoIsReadStrictly() throws {
        let key = P256.KeyAgreement.PrivateKey().publicKey
        let coseKey: CBOR = .map([.init(1, 2), .init(-1, 1), .init(-2, .bytes(Array(key.x963Representation[1..<33]))),
                                  .init(-3, .bytes(Array(key.x963Representation[33..<65])))])
        func info(_ value: CBOR) -> String { Base64URL.encode(CBOREncoder().encode(value)) }
        #expect(throws: Never.self) {
            try EncryptionInfo(base64URL: info(["dcapi", .map([.init("nonce", .bytes([UInt8](repeating: 0, count: 16))), .init("recipientPublicKey", coseKey)])]))
        }
        let bad: [String] = [
            info(["dcapi", .map([.init("nonce", .bytes([UInt8](repeating: 0, count: 15))), .init("recipientPublicKey", coseKey)])]),
            info(["other", .map([.init("nonce", .bytes([UInt8](repeating: 0, count: 16))), .init("recipientPublicKey", coseKey)])]),
            info(["dcapi", .map([.init("nonce", .bytes([UInt8](repeating: 0, count: 16))), .init("key", coseKey)])]),
            info(["dcapi", .map([.init("nonce", .bytes([UInt8](repeating: 0, count: 16)))])]),
            "not base64!",
        ]
        for text in bad {
            #expect(throws: WebPresentmentError.self) { try EncryptionInfo(base64URL: text) }
        }
    }
}
