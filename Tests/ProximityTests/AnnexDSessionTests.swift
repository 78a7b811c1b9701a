import CBOR
import Crypto
import Foundation
import MDoc
import Testing
import TestSupport
import TrustStore
@testable import Proximity
@testable import ReaderAuthentication

/// The ISO 18013-5 Annex D exchange, value by value, from the reader's side.
@Suite(.enabled(if: Fixtures.sharedVectorsAvailable, "needs ../shared/vectors"))
struct AnnexDSessionTests {
    /// The engagement the NFC handover carries (no retrieval methods), which is the one in the transcript; the QR
    /// form `device_engagement` adds a BLE retrieval method.
    static func opened() throws -> ProximityReader.Opened {
        let engagement = try DeviceEngagement(bytes: try Fixtures.annexD("session_transcript_device_engagement"))
        let key = try P256.KeyAgreement.PrivateKey(rawRepresentation: try Fixtures.annexD("e_reader_key_d"))
        return try ProximityReader(builder: DeviceRequestBuilder(readerAuth: nil, mode: .readerAuth)).open(
            engagement: engagement, handover: try Fixtures.annexD("handover_nfc"),
            request: .deviceRequest(try Fixtures.annexD("device_request")), eReaderKey: key)
    }

    @Test func theEngagementParses() throws {
        let engagement = try DeviceEngagement(bytes: try Fixtures.annexD("device_engagement"))
        #expect(engagement.version == "1.0")
        #expect(Array(engagement.eDeviceKey.x963Representation) == [0x04] + (try Fixtures.annexD("e_device_key_x")) + (try Fixtures.annexD("e_device_key_y")))
        #expect(engagement.retrievalMethods == [2])
    }

    @Test func everyDerivedValueMatches() throws {
        let opened = try Self.opened()
        #expect(opened.transcript.eReaderKeyBytes == (try Fixtures.annexD("e_reader_key_bytes")))
        #expect(opened.transcript.bytes == (try Fixtures.annexD("session_transcript")))
        #expect(opened.transcript.taggedBytes == (try Fixtures.annexD("session_transcript_bytes")))
        let keys = try SessionKeys(eReaderKey: opened.session.eReaderKey, eDeviceKey: opened.session.eDeviceKey,
                                   sessionTranscriptBytes: opened.transcript.taggedBytes)
        #expect(keys.skReader.withUnsafeBytes { Array($0) } == (try Fixtures.annexD("sk_reader")))
        #expect(keys.skDevice.withUnsafeBytes { Array($0) } == (try Fixtures.annexD("sk_device")))
        #expect(opened.sessionEstablishment == (try Fixtures.annexD("session_establishment")))
        // Annex D's SessionEstablishment decrypts with our SKReader (reader counter 1) to its DeviceRequest.
        let establishment = try CBORDecoder().decode(try Fixtures.annexD("session_establishment"))
        let data = try #require(establishment.mapValue?.first { $0.key.textValue == "data" }?.value.bytesValue)
        #expect(try SessionCipher.open(data, key: keys.skReader, sender: .reader, counter: 1) == (try Fixtures.annexD("device_request")))
        #expect(opened.session.requested.documents.first?.docType == "org.iso.18013.5.1.mDL")
    }

    @Test func theAnswerDecryptsAndVerifiesWithTheDeviceMac() throws {
        let opened = try Self.opened()
        guard case .response(let response, let plaintext) = try ProximityReader.receive(try Fixtures.annexD("session_data"), session: opened.session) else {
            Issue.record("no response")
            return
        }
        #expect(plaintext == (try Fixtures.annexD("device_response")))
        var options = VerificationOptions(verificationTime: TestClock.date("2021-01-01T00:00:00Z"))
        options.readerKey = try EphemeralReaderKey(rawScalar: try Fixtures.annexD("e_reader_key_d"))
        options.requestedItems = opened.session.requested
        let trust = TrustSnapshot(anchors: [try TrustAnchor(derBytes: try Fixtures.annexD("iaca_cert"))])
        let report = MDocVerifier(trust: trust).verify(response, sessionTranscript: opened.session.transcript, options: options)
        #expect(report.verified)
        #expect(report.documents.first?.deviceAuthentication == .mac)
        #expect(report.documents.first?.check(.requestElements)?.status == .passed)
    }

    @Test func terminationEndsTheSession() throws {
        let opened = try Self.opened()
        guard case .ended(let status) = try ProximityReader.receive(try Fixtures.annexD("session_termination"), session: opened.session) else {
            Issue.record("not ended")
            return
        }
        #expect(status == 20)
        #expect(SessionData.termination == (try Fixtures.annexD("session_termination")))
    }

    func failure(_ bytes: [UInt8], session: ProximitySession) -> ResponseFailure? {
        do {
            _ = try ProximityReader.receive(bytes, session: session)
            return nil
        } catch {
            return error
        }
    }

    @Test func eachWayOfGettingTheEncryptionWrongHasItsCode() throws {
        let opened = try Self.opened()
        let keys = try SessionKeys(eReaderKey: opened.session.eReaderKey, eDeviceKey: opened.session.eDeviceKey,
                                   sessionTranscriptBytes: opened.transcript.taggedBytes)
        let plaintext = try Fixtures.annexD("device_response")
        func sessionData(_ data: [UInt8]) -> [UInt8] { CBOREncoder().encode(.map([.init("data", .bytes(data))])) }
        let counter2 = try SessionCipher.seal(plaintext, key: keys.skDevice, sender: .mdoc, counter: 2)
        #expect(failure(sessionData(counter2), session: opened.session)?.code == .sessionCounterInvalid)
        let readerKey = try SessionCipher.seal(plaintext, key: keys.skReader, sender: .mdoc, counter: 1)
        #expect(failure(sessionData(readerKey), session: opened.session)?.code == .sessionKeyMismatch)
        var tampered = try SessionCipher.seal(plaintext, key: keys.skDevice, sender: .mdoc, counter: 1)
        tampered[100] ^= 1
        #expect(failure(sessionData(tampered), session: opened.session)?.code == .decryptionFailed)
        for malformed: [UInt8] in [[], [0xa0], CBOREncoder().encode(.map([.init("data", "text")])),
                                   CBOREncoder().encode(.map([.init("other", 1)])), [0xa1, 0x64] + Array("data".utf8)] {
            #expect(failure(malformed, session: opened.session)?.code == .sessionDataMalformed)
        }
        let fine = try SessionCipher.seal(plaintext, key: keys.skDevice, sender: .mdoc, counter: 1)
        #expect(failure(sessionData(fine), session: opened.session) == nil)
    }

    @Test func sessionsSurviveTheStore() throws {
        let opened = try Self.opened()
        let record = opened.session.record(id: "x", createdAt: Date(), expiresAt: Date())
        let back = try #require(ProximitySession(record: record))
        #expect(back.transcript == opened.session.transcript)
        #expect(back.eReaderKey.rawRepresentation == opened.session.eReaderKey.rawRepresentation)
        #expect(back.requested == opened.session.requested)
    }
}

/// DeviceEngagement strictness (no shared vectors needed).
struct DeviceEngagementTests {
    static func engagement(suite: CBOR = 1, curve: Int64 = 1, version: CBOR = "1.0", methods: CBOR? = nil) -> [UInt8] {
        let key = P256.KeyAgreement.PrivateKey().publicKey.x963Representation
        let coseKey: CBOR = .map([.init(1, 2), .init(-1, .int(curve)), .init(-2, .bytes(Array(key[1..<33]))), .init(-3, .bytes(Array(key[33..<65])))])
        var fields: [CBOR.Pair] = [.init(0, version), .init(1, [suite, .embedded(coseKey)])]
        if let methods { fields.append(.init(2, methods)) }
        return CBOREncoder().encode(.map(fields))
    }

    @Test func aQREngagementParsesInBothForms() throws {
        let bytes = Self.engagement(methods: [[2, 1, .map([.init(0, false), .init(1, true)])]])
        let fromQR = try DeviceEngagement(text: "mdoc:" + Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: ""))
        #expect(fromQR.bytes == bytes)
        #expect(fromQR.taggedBytes == CBOREncoder().encode(.tagged(24, .bytes(bytes))))
        #expect(try DeviceEngagement(text: Data(bytes).base64EncodedString()).bytes == bytes)
    }

    @Test func whatCannotBeUsedIsRefused() {
        let bad: [[UInt8]] = [
            Self.engagement(suite: 2), Self.engagement(curve: 2), Self.engagement(version: "2.0"), Self.engagement(version: 1),
            Self.engagement(methods: []), Self.engagement(methods: [[2, 1]]), [0xa0], [0xff], CBOREncoder().encode([1, 2]),
            CBOREncoder().encode(.map([.init(0, "1.0"), .init(1, [1, .bytes([1, 2])])])),
        ]
        for bytes in bad {
            #expect(throws: ProximityError.self) { try DeviceEngagement(bytes: bytes) }
        }
        #expect(throws: ProximityError.self) { try DeviceEngagement(text: "mdoc:!!") }
    }
}
