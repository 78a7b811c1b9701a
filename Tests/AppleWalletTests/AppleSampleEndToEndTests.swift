import CBOR
import Crypto
import Foundation
import MDoc
import Testing
import TestSupport
import TrustStore
@testable import AppleWallet

/// Apple's own sample, end to end: envelope -> transcript -> HPKE -> DeviceResponse -> verified claims.
@Suite(.enabled(if: Fixtures.sharedVectorsAvailable, "needs ../shared/vectors"))
struct AppleSampleEndToEndTests {
    static func sample(_ name: String) throws -> URL { try Fixtures.appleSample(name) }

    struct Inputs {
        let envelope: [UInt8]
        let nonce: [UInt8]
        let merchantId: String
        let teamId: String
        let key: MerchantEncryptionKey
        let trust: TrustSnapshot
    }

    static func inputs() throws -> Inputs {
        let trustAnchors = try CertificateParsing.derCertificates(from: try Fixtures.bytes(try sample("issuer_root.pem")))
        return Inputs(
            envelope: try Fixtures.bytes(try sample("hpke_envelope.cbor")),
            nonce: try Fixtures.hexFile(try sample("nonce.hex")),
            merchantId: try Fixtures.text(try sample("merchant_id.txt")),
            teamId: try Fixtures.text(try sample("team_id.txt")),
            key: try MerchantEncryptionKey(pem: try Fixtures.text(try sample("merchant_encryption.key")), label: "sample"),
            trust: TrustSnapshot(anchors: try trustAnchors.map { try TrustAnchor(derBytes: $0) }))
    }

    /// The sample's root has no countryName (mandatory in ISO 18013-5 Annex B): it is named `lenient`, by its
    /// SHA-256, as an operator would name a test root.
    static let options: VerificationOptions = {
        var options = VerificationOptions(verificationTime: TestClock.date("2022-06-01T00:00:00Z"))
        if let root = try? inputs().trust.anchors.first { options.profileChecksByAnchor = [root.sha256: .lenient] }
        return options
    }()

    @Test func pkRHashIsTheHashOfTheUncompressedPoint() throws {
        let inputs = try Self.inputs()
        #expect(inputs.key.pkRHash == (try Fixtures.hexFile(try Self.sample("pk_r_hash.hex"))))
    }

    @Test func keyFilesMayCarryTheMerchantCertificate() throws {
        let key = try Fixtures.text(try Self.sample("merchant_encryption.key"))
        let certificate = try Fixtures.text(try Self.sample("merchant_encryption.crt"))
        let bundled = try MerchantEncryptionKey(pem: key + "\n" + certificate, label: "bundle")
        #expect(bundled.pkRHash == (try Fixtures.hexFile(try Self.sample("pk_r_hash.hex"))))
        let otherCertificate = try Fixtures.text(try Self.sample("issuer_root.pem"))
        #expect(throws: AppleWalletError.self) {
            try MerchantEncryptionKey(pem: key + "\n" + otherCertificate, label: "mismatch")
        }
    }

    @Test func transcriptIsRebuiltByteForByte() throws {
        let inputs = try Self.inputs()
        let transcript = try AppleSessionTranscript(nonce: inputs.nonce, merchantId: inputs.merchantId,
                                                    teamId: inputs.teamId, pkRHash: inputs.key.pkRHash)
        #expect(transcript.bytes == (try Fixtures.hexFile(try Self.sample("session_transcript.cbor.hex"))))
        #expect(transcript.infoHash == (try Fixtures.hexFile(try Self.sample("info_hash.hex"))))
    }

    @Test func decryptsToApplesPlaintext() throws {
        let inputs = try Self.inputs()
        let opened = try AppleIdentityVerifier(keys: [inputs.key]).open(
            envelope: inputs.envelope, nonce: inputs.nonce, merchantId: inputs.merchantId, teamId: inputs.teamId)
        #expect(opened.plaintext == (try Fixtures.bytes(try Self.sample("plaintext_topics.cbor"))))
    }

    @Test func verifiesEndToEnd() throws {
        let inputs = try Self.inputs()
        let report = AppleIdentityVerifier(keys: [inputs.key]).verify(
            envelope: inputs.envelope, nonce: inputs.nonce, merchantId: inputs.merchantId, teamId: inputs.teamId,
            trust: inputs.trust, options: Self.options)
        #expect(report.verified)
        let document = try #require(report.documents.first)
        #expect(document.deviceAuthentication == .signature)
        #expect(document.claim("org.iso.18013.5.1", "given_name") == .text("Jane"))
        #expect(document.claim("org.iso.18013.5.1", "family_name") == .text("Doe"))
        #expect(document.claim("org.iso.18013.5.1", "age_in_years") == .integer(42))
    }

    @Test func keyRotationFindsTheRightKeyAmongSeveral() throws {
        let inputs = try Self.inputs()
        let other = MerchantEncryptionKey(privateKey: P256.KeyAgreement.PrivateKey(), label: "other")
        let report = AppleIdentityVerifier(keys: [other, inputs.key]).verify(
            envelope: inputs.envelope, nonce: inputs.nonce, merchantId: inputs.merchantId, teamId: inputs.teamId,
            trust: inputs.trust, options: Self.options)
        #expect(report.verified)
    }

    @Test func wrongNonceMerchantOrTeamIsAnInfoHashMismatch() throws {
        let inputs = try Self.inputs()
        let verifier = AppleIdentityVerifier(keys: [inputs.key])
        var nonce = inputs.nonce
        nonce[0] ^= 1
        let cases: [([UInt8], String, String)] = [
            (nonce, inputs.merchantId, inputs.teamId),
            (inputs.nonce, inputs.merchantId + "x", inputs.teamId),
            (inputs.nonce, inputs.merchantId, "OTHERTEAM"),
        ]
        for (nonce, merchant, team) in cases {
            let report = verifier.verify(envelope: inputs.envelope, nonce: nonce, merchantId: merchant, teamId: team,
                                         trust: inputs.trust, options: Self.options)
            #expect(report.failureCode == .infoHashMismatch)
            #expect(report.failureDetail?.contains("nonce, merchant ID or team ID") == true)
        }
    }

    @Test func unknownKeyIsReported() throws {
        let inputs = try Self.inputs()
        let other = MerchantEncryptionKey(privateKey: P256.KeyAgreement.PrivateKey(), label: "other")
        let report = AppleIdentityVerifier(keys: [other]).verify(
            envelope: inputs.envelope, nonce: inputs.nonce, merchantId: inputs.merchantId, teamId: inputs.teamId,
            trust: inputs.trust, options: Self.options)
        #expect(report.failureCode == .recipientKeyUnknown)
    }

    /// Rebuilds the sample envelope with its `data` changed.
    func envelope(withData change: ([UInt8]) -> [UInt8]) throws -> [UInt8] {
        let item = try CBORDecoder().decode(try Self.inputs().envelope)
        let pairs = try #require(item.mapValue).map { pair -> CBOR.Pair in
            if pair.key.textValue == "data" { return CBOR.Pair("data", .bytes(change(Array(pair.value.bytesValue ?? [])))) }
            return CBOR.Pair(pair.key.value, pair.value.value)
        }
        return CBOREncoder().encode(.map(pairs))
    }

    @Test func truncatedOrFlippedCiphertextFailsDecryption() throws {
        let inputs = try Self.inputs()
        let verifier = AppleIdentityVerifier(keys: [inputs.key])
        let changes: [([UInt8]) -> [UInt8]] = [
            { Array($0.dropLast()) },
            { Array($0.prefix(16)) },
            { var d = $0; d[100] ^= 0x01; return d },
            { var d = $0; d[d.count - 1] ^= 0x80; return d },
        ]
        for change in changes {
            let report = verifier.verify(envelope: try envelope(withData: change), nonce: inputs.nonce,
                                         merchantId: inputs.merchantId, teamId: inputs.teamId,
                                         trust: inputs.trust, options: Self.options)
            #expect(report.failureCode == .decryptionFailed)
            #expect(report.failureDetail == "the envelope could not be decrypted")
        }
    }

    @Test func nonceLengthIsChecked() throws {
        #expect(throws: AppleWalletError.self) {
            try AppleSessionTranscript(nonce: [], merchantId: "m", teamId: "t", pkRHash: [])
        }
        #expect(throws: AppleWalletError.self) {
            try AppleSessionTranscript(nonce: [UInt8](repeating: 1, count: 65), merchantId: "m", teamId: "t", pkRHash: [])
        }
    }
}
