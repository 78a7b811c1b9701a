import CBOR
import COSE
import X509
import Crypto
import Foundation
import MDoc
import Testing
import TestSupport
import TrustStore
@testable import WebPresentment

/// The ISO/IEC 18013-7 Annex C reference vector and the document-less walt.id vector, as published.
@Suite(.enabled(if: Fixtures.sharedVectorsAvailable, "needs ../shared/vectors"))
struct AnnexCReferenceVectorTests {
    static let folder = Fixtures.sharedVectors.appendingPathComponent("annex-c/annexc-iso-reference")

    struct Vector {
        let origin: String
        let encryptionInfo: String
        let response: String
        let key: P256.KeyAgreement.PrivateKey
    }

    static func vector() throws -> Vector {
        func text(_ name: String) throws -> String {
            try Fixtures.text(folder.appendingPathComponent(name)).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return Vector(origin: try text("origin.txt"), encryptionInfo: try text("encryption_info.b64url"),
                      response: try text("encrypted_response.b64url"),
                      key: try P256.KeyAgreement.PrivateKey(rawRepresentation: try Fixtures.hexFile(folder.appendingPathComponent("recipient_private_key_d.hex"))))
    }

    func verify(origin: String, requested: RequestedItems? = nil) throws -> VerificationReport {
        let vector = try Self.vector()
        let transcript = DCAPISessionTranscript(encryptionInfo: vector.encryptionInfo, origin: origin)
        let response: DeviceResponse
        do {
            response = try WebResponseDecryptor.open(try DCAPIEncryptedResponse(base64URL: vector.response),
                                                     recipientKey: vector.key, transcript: transcript)
        } catch {
            return .failure(error.code, error.detail)
        }
        let trust = TrustSnapshot(anchors: [try TrustAnchor(derBytes: try Fixtures.annexD("iaca_cert"))])
        var options = VerificationOptions(verificationTime: TestClock.date("2021-01-01T00:00:00Z"))
        options.requestedItems = requested
        return MDocVerifier(trust: trust).verify(response, sessionTranscript: transcript.bytes, options: options)
    }

    @Test func transcriptIsByteExact() throws {
        let vector = try Self.vector()
        let transcript = DCAPISessionTranscript(encryptionInfo: vector.encryptionInfo, origin: vector.origin)
        #expect(transcript.bytes == (try Fixtures.hexFile(Self.folder.appendingPathComponent("session_transcript.cbor.hex"))))
        #expect(transcript.bytes.count == 44)
        #expect(transcript.dcapiInfoHash.hexString == "642a3e58e7d7d9b1c2c066984550c0204cbfd2bb386c58c687be5d76210c1a70")
    }

    @Test func decryptsToThePublishedPlaintext() throws {
        let vector = try Self.vector()
        let plaintext = try WebResponseDecryptor.decrypt(
            try DCAPIEncryptedResponse(base64URL: vector.response), recipientKey: vector.key,
            transcript: DCAPISessionTranscript(encryptionInfo: vector.encryptionInfo, origin: vector.origin))
        #expect(plaintext == (try Fixtures.hexFile(Self.folder.appendingPathComponent("device_response.derived.cbor.hex"))))
    }

    @Test func verifiesWithTheAnnexDIACA() throws {
        let report = try verify(origin: "https://example.com")
        #expect(report.verified)
        let document = try #require(report.documents.first)
        #expect(document.deviceAuthentication == .signature)
        #expect(document.claim("org.iso.18013.5.1", "family_name") == .text("Doe"))
        #expect(document.claim("org.iso.18013.5.1", "document_number") == .text("123456789"))
    }

    static func request(_ elements: [String], docType: String = "org.iso.18013.5.1.mDL") -> RequestedItems {
        RequestedItems(documents: [.init(docType: docType, nameSpaces: [
            ("org.iso.18013.5.1", elements.map { .init($0, intentToRetain: false) }),
        ])])
    }

    @Test func theAnswerMatchesItsRequest() throws {
        // The reference DeviceRequest asks for family_name and document_number.
        let report = try verify(origin: "https://example.com", requested: Self.request(["family_name", "document_number"]))
        #expect(report.verified)
        let document = try #require(report.documents.first)
        #expect(document.check(.requestElements)?.status == .passed)
        #expect(document.notReturned.isEmpty)
    }

    @Test func anElementNotRequestedFailsAndItsValueIsDropped() throws {
        let report = try verify(origin: "https://example.com", requested: Self.request(["family_name"]))
        #expect(!report.verified)
        #expect(report.failureCode == .elementNotRequested)
        let document = try #require(report.documents.first)
        #expect(document.check(.requestElements)?.status == .failed)
        #expect(document.check(.requestElements)?.detail?.contains("document_number") == true)
        #expect(document.claim("org.iso.18013.5.1", "document_number") == nil)
        #expect(!document.claims.contains { $0.identifier == "document_number" })
    }

    @Test func anUnrequestedDocTypeFails() throws {
        let report = try verify(origin: "https://example.com", requested: Self.request(["family_name"], docType: "org.iso.23220.photoid.1"))
        #expect(report.failureCode == .elementNotRequested)
        #expect(report.documents.first?.claims.isEmpty == true)
    }

    @Test func requestedElementsThatDidNotComeBackAreListedNotFailed() throws {
        let report = try verify(origin: "https://example.com",
                                requested: Self.request(["family_name", "document_number", "given_name", "age_over_21"]))
        #expect(report.verified)
        #expect(report.documents.first?.notReturned == [
            ElementReference(nameSpace: "org.iso.18013.5.1", identifier: "given_name"),
            ElementReference(nameSpace: "org.iso.18013.5.1", identifier: "age_over_21"),
        ])
    }

    @Test func withoutARequestTheCheckIsNotApplicable() throws {
        let report = try verify(origin: "https://example.com")
        #expect(report.documents.first?.check(.requestElements)?.status == .notApplicable)
    }

    @Test(arguments: ["https://example.com/", "https://example.org", "http://example.com"])
    func anotherOriginDoesNotDecrypt(origin: String) throws {
        let report = try verify(origin: origin)
        #expect(!report.verified)
        #expect(report.failureCode == .decryptionFailed)
    }

    @Test func theRequestStringsParse() throws {
        let vector = try Self.vector()
        let info = try EncryptionInfo(base64URL: vector.encryptionInfo)
        #expect(info.nonce.hexString == "b93051f726d8c8cc47939f3abec046b7")
        #expect(info.recipientPublicKey.x963Representation == vector.key.publicKey.x963Representation)
        // Re-encoding ours from the same values gives the same bytes: our encoding is the reference one.
        #expect(EncryptionInfo(nonce: info.nonce, recipientPublicKey: info.recipientPublicKey).base64URL == vector.encryptionInfo)
    }

    /// Annex D's readerAuth verifies over its ReaderAuthenticationBytes the way our verification of ours does, and
    /// rebuilding those bytes from the transcript and the ItemsRequest of Annex D gives the published ones.
    @Test func annexDReaderAuthenticationMatchesOurConstruction() throws {
        let payload = try Fixtures.annexD("reader_authentication_bytes")
        let rebuilt = CBOREncoder().encode(.embedded(.array([
            "ReaderAuthentication", .encoded(try Fixtures.annexD("session_transcript")),
            .tagged(24, .bytes(try Fixtures.annexD("items_request"))),
        ])))
        #expect(rebuilt == payload)
        let sign1 = try COSESign1(bytes: try Fixtures.annexD("reader_auth"))
        let certificate = try Certificate(derEncoded: try Fixtures.annexD("reader_cert"))
        let key = try #require(P256.Signing.PublicKey(certificate.publicKey))
        try sign1.verify(using: .p256(key), detachedPayload: payload[...])
        #expect(throws: COSEError.self) { try sign1.verify(using: .p256(key), detachedPayload: (payload + [0])[...]) }
    }

    @Test func theDocumentLessVectorDecryptsAndReportsNoDocuments() throws {
        let url = Fixtures.sharedVectors.appendingPathComponent("annex-c/annexc-waltid-deterministic/ANNEXC-DETERMINISTIC-001.json")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        func find(_ key: String, in value: Any) -> String? {
            if let object = value as? [String: Any] {
                if let found = object[key] as? String { return found }
                for inner in object.values { if let found = find(key, in: inner) { return found } }
            }
            return nil
        }
        let origin = try #require(find("origin", in: json))
        let keyHex = try #require(find("recipientPrivateKeyHex", in: json))
        let encryptionInfo = try #require(find("encryptionInfoB64", in: json) ?? find("encryptionInfo", in: json))
        let response = try #require(find("encryptedResponseB64", in: json) ?? find("response", in: json))
        let key = try P256.KeyAgreement.PrivateKey(rawRepresentation: try #require([UInt8](hex: keyHex)))
        let transcript = DCAPISessionTranscript(encryptionInfo: encryptionInfo, origin: origin)
        #expect(SHA256.hash(data: transcript.bytes).map { String(format: "%02x", $0) }.joined()
                == "564a34efc36b9b5a5ccafb6bf2e923cd96cc4a9c3712407f887d1e84d3bb58e4")
        let encrypted = try DCAPIEncryptedResponse(base64URL: response)
        let plaintext = try WebResponseDecryptor.decrypt(encrypted, recipientKey: key, transcript: transcript)
        #expect(plaintext.count == 21)
        do {
            _ = try WebResponseDecryptor.open(encrypted, recipientKey: key, transcript: transcript)
            Issue.record("a response without documents was accepted")
        } catch {
            #expect(error.code == .documentsNotReturned)
            #expect(error.detail.contains("status 0"))
        }
    }
}

extension Array where Element == UInt8 {
    var hexString: String { map { String(format: "%02x", $0) }.joined() }
}
