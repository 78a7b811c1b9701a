import Foundation
import Testing
import TestSupport
import TrustStore
import CBOR
@testable import MDoc

/// Apple's "Verify with Wallet" sample, already decrypted: device signature over the AppleHandover transcript.
@Suite(.enabled(if: Fixtures.sharedVectorsAvailable, "needs ../shared/vectors"))
struct AppleSampleVerificationTests {
    func report(at time: String = "2022-06-01T00:00:00Z", mode: ProfileCheckMode = .warn) throws -> VerificationReport {
        let plaintext = try Fixtures.bytes(try Fixtures.appleSample("plaintext_topics.cbor"))
        let topics = try CBORDecoder(limits: DeviceResponse.decodingLimits).decode(plaintext)
        let identity = try #require(topics["identity"])
        let response = try DeviceResponse(bytes: Array(identity.encoded))
        let trust = try TrustFixtures.anchors([try Fixtures.appleSample("issuer_root.pem")])
        let transcript = try Fixtures.hexFile(try Fixtures.appleSample("session_transcript.cbor.hex"))
        return MDocVerifier(trust: trust).verify(
            response, sessionTranscript: transcript,
            options: VerificationOptions(verificationTime: TestClock.date(time), profileChecks: mode))
    }

    @Test func verifiesWithWarningsForTheProfile() throws {
        let report = try report()
        #expect(report.verified)
        let document = try #require(report.documents.first)
        #expect(document.deviceAuthentication == .signature)
        #expect(document.claim("org.iso.18013.5.1", "given_name") == .text("Jane"))
        #expect(document.claim("org.iso.18013.5.1", "family_name") == .text("Doe"))
        #expect(document.claim("org.iso.18013.5.1", "age_in_years") == .integer(42))
        #expect(document.check(.issuerValueDigests)?.detail == "22 digests match (SHA-256)")
        let profile = try #require(document.check(.issuerCertificateProfile))
        #expect(profile.status == .warning)
        #expect(profile.detail?.contains("no countryName") == true)
        #expect(document.issuer.iacaSubject?.contains("PassKit Identity Test Issuer Root CA") == true)
    }

    @Test func enforcedProfileFailsTheSample() throws {
        let report = try report(mode: .enforce)
        #expect(!report.verified)
        #expect(report.failureCode == .certificateProfileViolation)
    }

    @Test func afterTheMSOExpiresItFails() throws {
        #expect(try report(at: "2023-06-01T00:00:00Z").failureCode == .msoExpired)
    }
}
