import CBOR
import COSE
import Crypto
import Encodings
import Foundation
import MDoc
import SwiftASN1
import Testing
import TestSupport
import X509
@testable import ReaderAuthentication
@testable import WebPresentment

/// DeviceRequest, EncryptionInfo and reader authentication as we build them, checked by reading them back.
struct RequestBuildingTests {
    static let demoKeys = Fixtures.testVectors.appendingPathComponent("demo/keys")

    static func demoReaderKey() throws -> ReaderAuthenticationKey {
        try ReaderAuthenticationKey(
            keyPEM: try Fixtures.text(demoKeys.appendingPathComponent("reader-auth.pem")),
            chainPEM: try Fixtures.text(demoKeys.appendingPathComponent("reader-auth-chain.pem")))
    }

    static let origin = SerializedOrigin("https://shop.example")!

    /// The published dcapiInfoHash / transcript vectors (notes §3.6): only the string and the origin are hashed.
    @Test(arguments: [
        ("gmVkY2FwaaJlbm9uY2VQtJvGiCZ0egQII8fQgu960HJyZWNpcGllbnRQdWJsaWNLZXmkAQIgASFYIMmliVBWgs8KKpAychO3py0Eqagows-CrraFX1rVOniXIlggIMvYr_x55AY4LKiWZLHBlQJmX1R9Y5BkUfnuSddAmyE",
         "https://verifier.ageverification.dev", "4a292708fcf38ad55a7969f1c97ead9decf7756b7e9d8cfee942fe9f31b8db0a"),
        ("gmVkY2FwaaJlbm9uY2VQAAECAwQFBgcICQoLDA0OD3JyZWNpcGllbnRQdWJsaWNLZXmkAQIgASFYIA",
         "https://verifier.example.com", "b1d05b3cc73cfcc4ad210f14dc039258ba01a46832e929c0b336845c59f56c92"),
    ])
    func publishedDcapiInfoHashes(encryptionInfo: String, origin: String, hash: String) {
        #expect(DCAPISessionTranscript(encryptionInfo: encryptionInfo, origin: origin).dcapiInfoHash.hexString == hash)
    }

    @Test func publishedTranscript() {
        let info = "gmVkY2FwaaJlbm9uY2VQAAECAwQFBgcICQoLDA0OD3JyZWNpcGllbnRQdWJsaWNLZXmkAQIgASFYIKQ3uuuybqTnvaV3PMUMn_x9N47ELtuK-alyNucf59WbIlggw-g0OrRBN7WFLX3zsngfCWD3zfor5-NLHxJPmzsSvqQ"
        #expect(DCAPISessionTranscript(encryptionInfo: info, origin: "https://verifier.ihv.example").bytes.hexString
                == "83f6f6826564636170695820f909037adf73e1486dd0787df20e5d336ac49f02cb496472fee7dcbb66298cbd")
    }

    @Test func encryptionInfoHasTheAnnexCShape() throws {
        let key = P256.KeyAgreement.PrivateKey()
        let nonce = [UInt8](repeating: 7, count: 32)
        let info = EncryptionInfo(nonce: nonce, recipientPublicKey: key.publicKey)
        let point = Array(key.publicKey.x963Representation)
        var expected: [UInt8] = [0x82, 0x65] + Array("dcapi".utf8) + [0xa2, 0x65] + Array("nonce".utf8) + [0x58, 0x20] + nonce
        expected += [0x72] + Array("recipientPublicKey".utf8) + [0xa4, 0x01, 0x02, 0x20, 0x01, 0x21, 0x58, 0x20]
        expected += point[1..<33] + [0x22, 0x58, 0x20] + point[33..<65]
        #expect(info.bytes == expected)
        #expect(!info.base64URL.contains("=") && !info.base64URL.contains("+") && !info.base64URL.contains("/"))
        let parsed = try EncryptionInfo(base64URL: info.base64URL)
        #expect(parsed.nonce == nonce)
        #expect(parsed.recipientPublicKey.x963Representation == key.publicKey.x963Representation)
    }

    @Test func requestsAreFreshEachTime() throws {
        let builder = DeviceRequestBuilder(readerAuth: nil, mode: .readerAuth)
        let first = try WebRequest(origin: Self.origin, requested: RequestLimits.defaultRequest, builder: builder)
        let second = try WebRequest(origin: Self.origin, requested: RequestLimits.defaultRequest, builder: builder)
        #expect(first.encryptionInfo.nonce != second.encryptionInfo.nonce)
        #expect(first.encryptionInfo.nonce.count >= 16)
        #expect(first.recipientKey.rawRepresentation != second.recipientKey.rawRepresentation)
        #expect(first.encryptionInfo.base64URL != second.encryptionInfo.base64URL)
    }

    /// Decodes a DeviceRequest we built and checks every signature it carries against the reader certificate.
    func readBack(_ request: WebRequest) throws -> (top: [String: CBORItem], signatures: Int) {
        let bytes = try #require(Base64URL.decode(request.deviceRequest))
        let item = try CBORDecoder().decode(Array(bytes))
        // Deterministic: re-encoding the decoded value in deterministic mode reproduces the bytes.
        #expect(CBOREncoder(mode: .deterministic).encode(item.value) == Array(bytes))
        var top: [String: CBORItem] = [:]
        for pair in try #require(item.mapValue) { top[try #require(pair.key.textValue)] = pair.value }
        let key = try Self.demoReaderKey()
        let readerKey = try COSEPublicKey(curve: .p256, x963: Array(key.privateKey.publicKey.x963Representation))
        var signatures = 0
        var itemsRequests: [CBORItem] = []
        for docRequest in try #require(top["docRequests"]?.arrayValue) {
            var fields: [String: CBORItem] = [:]
            for pair in try #require(docRequest.mapValue) { fields[try #require(pair.key.textValue)] = pair.value }
            let itemsRequest = try #require(fields["itemsRequest"])
            #expect(itemsRequest.tagged?.tag == CBORTag.encodedCBOR)
            itemsRequests.append(itemsRequest)
            if let readerAuth = fields["readerAuth"] {
                let sign1 = try COSESign1(item: readerAuth)
                #expect(sign1.payload == nil)
                let payload = CBOREncoder().encode(.embedded(.array([
                    "ReaderAuthentication", .encoded(request.transcript.bytes), .encoded(Array(itemsRequest.encoded)),
                ])))
                try sign1.verify(using: readerKey, detachedPayload: payload[...])
                #expect(try sign1.headers.x5chain().map(Array.init) == key.x5chain)
                signatures += 1
            }
        }
        if let all = top["readerAuthAll"]?.arrayValue {
            let info = try #require(top["deviceRequestInfo"])
            #expect(info.tagged?.tag == CBORTag.encodedCBOR)
            let payload = CBOREncoder().encode(.embedded(.array([
                "ReaderAuthenticationAll", .encoded(request.transcript.bytes),
                .array(itemsRequests.map { .encoded(Array($0.encoded)) }), .encoded(Array(info.encoded)),
            ])))
            for entry in all {
                try COSESign1(item: entry).verify(using: readerKey, detachedPayload: payload[...])
                signatures += 1
            }
        }
        return (top, signatures)
    }

    @Test(arguments: ReaderAuthMode.allCases)
    func readerAuthenticationVerifies(mode: ReaderAuthMode) throws {
        let requested = RequestedItems(documents: [
            RequestLimits.defaultRequest.documents[0],
            .init(docType: "org.iso.23220.photoid.1", nameSpaces: [("org.iso.23220.1", [.init("family_name_unicode", intentToRetain: true)])]),
        ])
        let request = try WebRequest(origin: Self.origin, requested: requested,
                                     builder: DeviceRequestBuilder(readerAuth: try Self.demoReaderKey(), mode: mode))
        let (top, signatures) = try readBack(request)
        switch mode {
        case .readerAuth:
            #expect(signatures == 2)
            #expect(top["version"]?.textValue == "1.0")
            #expect(top["readerAuthAll"] == nil)
        case .readerAuthAll:
            #expect(signatures == 1)
            #expect(top["version"]?.textValue == "1.1")
        case .both:
            #expect(signatures == 3)
            #expect(top["version"]?.textValue == "1.1")
        }
    }

    @Test func aTamperedTranscriptBreaksTheSignature() throws {
        let request = try WebRequest(origin: Self.origin, requested: RequestLimits.defaultRequest,
                                     builder: DeviceRequestBuilder(readerAuth: try Self.demoReaderKey(), mode: .readerAuth))
        let bytes = try #require(Base64URL.decode(request.deviceRequest))
        let item = try CBORDecoder().decode(Array(bytes))
        let docRequest = try #require(item.mapValue?.first { $0.key.textValue == "docRequests" }?.value.arrayValue?.first)
        let fields = try #require(docRequest.mapValue)
        let itemsRequest = try #require(fields.first { $0.key.textValue == "itemsRequest" }?.value)
        let sign1 = try COSESign1(item: try #require(fields.first { $0.key.textValue == "readerAuth" }?.value))
        let other = DCAPISessionTranscript(encryptionInfo: request.encryptionInfo.base64URL, origin: "https://other.example")
        let payload = CBOREncoder().encode(.embedded(.array(["ReaderAuthentication", .encoded(other.bytes), .encoded(Array(itemsRequest.encoded))])))
        let key = try COSEPublicKey(curve: .p256, x963: Array(try Self.demoReaderKey().privateKey.publicKey.x963Representation))
        #expect(throws: COSEError.self) { try sign1.verify(using: key, detachedPayload: payload[...]) }
    }

    @Test func unsignedRequestsAreVersionOneWithoutReaderAuth() throws {
        let request = try WebRequest(origin: Self.origin, requested: RequestLimits.defaultRequest,
                                     builder: DeviceRequestBuilder(readerAuth: nil, mode: .both))
        let (top, signatures) = try readBack(request)
        #expect(signatures == 0)
        #expect(top["version"]?.textValue == "1.0")
        #expect(top["deviceRequestInfo"] == nil)
    }

    @Test func theItemsRequestHoldsWhatWasAsked() throws {
        let requested = RequestedItems(documents: [.init(docType: "org.iso.18013.5.1.mDL", nameSpaces: [
            ("org.iso.18013.5.1", [.init("family_name", intentToRetain: true), .init("document_number", intentToRetain: false)]),
        ])])
        let request = try WebRequest(origin: Self.origin, requested: requested,
                                     builder: DeviceRequestBuilder(readerAuth: nil, mode: .readerAuth))
        let bytes = try #require(Base64URL.decode(request.deviceRequest))
        let top = try CBORDecoder().decode(Array(bytes))
        let itemsRequest = try #require(top.mapValue?.first { $0.key.textValue == "docRequests" }?.value.arrayValue?.first?
            .mapValue?.first { $0.key.textValue == "itemsRequest" }?.value.tagged?.item.bytesValue)
        let decoded = try CBORDecoder().decode(Array(itemsRequest))
        #expect(decoded.value == .map([
            .init("docType", "org.iso.18013.5.1.mDL"),
            .init("nameSpaces", .map([.init("org.iso.18013.5.1", .map([.init("family_name", true), .init("document_number", false)]))])),
        ]))
    }

    @Test func limitsOnWhatARequestMayAsk() {
        #expect(RequestLimits.problem(with: RequestLimits.defaultRequest) == nil)
        #expect(RequestLimits.problem(with: RequestedItems(documents: [])) != nil)
        let five = RequestedItems(documents: Array(repeating: RequestLimits.defaultRequest.documents[0], count: 5))
        #expect(RequestLimits.problem(with: five) != nil)
        let many = RequestedItems(documents: [.init(docType: "x", nameSpaces: [("ns", (0..<300).map { .init("e\($0)", intentToRetain: false) })])])
        #expect(RequestLimits.problem(with: many) != nil)
        let empty = RequestedItems(documents: [.init(docType: "x", nameSpaces: [("ns", [.init("", intentToRetain: false)])])])
        #expect(RequestLimits.problem(with: empty) != nil)
    }
}
