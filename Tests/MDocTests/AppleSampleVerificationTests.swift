import Foundation
import Testing
import TestSupport
import TrustStore
import CBOR
@testable import MDoc

/// Apple's "Verify with Wallet" sample, already decrypted: device signature over the AppleHandover transcript.
@Suite(.enabled(if: Fixtures.sharedVectorsAvailable, "needs ../shared/vectors"))
struct AppleSampleVerificationTests {
    /// The sample's report. Its certificates have no countryName, which ISO 18013-5 Annex B makes mandatory, so by
    /// default the sample's root is configured `lenient` (`sampleRootMode`); nil applies `mode` to every anchor.
    func report(at time: String = "2022-06-01T00:00:00Z", mode: ProfileCheckMode = .warn,
                sampleRootMode: ProfileCheckMode? = .lenient) throws -> VerificationReport {
        let plaintext = try Fixtures.bytes(try Fixtures.appleSample("plaintext_topics.cbor"))
        let topics = try CBORDecoder(limits: DeviceResponse.decodingLimits).decode(plaintext)
        let identity = try #require(topics["identity"])
        let response = try DeviceResponse(bytes: Array(identity.encoded))
        let trust = try TrustFixtures.anchors([try Fixtures.appleSample("issuer_root.pem")])
        let transcript = try Fixtures.hexFile(try Fixtures.appleSample("session_transcript.cbor.hex"))
        var options = VerificationOptions(verificationTime: TestClock.date(time), profileChecks: mode)
        if let sampleRootMode { options.profileChecksByAnchor = [trust.anchors[0].sha256: sampleRootMode] }
        return MDocVerifier(trust: trust).verify(response, sessionTranscript: transcript, options: options)
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
        let report = try report(mode: .enforce, sampleRootMode: nil)
        #expect(!report.verified)
        #expect(report.failureCode == .certificateProfileViolation)
    }

    /// countryName is mandatory in ISO 18013-5 Annex B, so the default mode fails the sample unless its root is
    /// named `lenient`.
    @Test func defaultProfileFailsTheSampleOnMandatoryCountryName() throws {
        let report = try report(sampleRootMode: nil)
        #expect(!report.verified)
        let profile = try #require(report.documents.first?.check(.issuerCertificateProfile))
        #expect(profile.status == .failed)
        #expect(profile.detail?.contains("mandatory: IACA has no countryName") == true)
        #expect(profile.detail?.contains("issuing_country \"\" differs") == true)
    }

    @Test func afterTheMSOExpiresItFails() throws {
        #expect(try report(at: "2023-06-01T00:00:00Z").failureCode == .msoExpired)
    }
}
