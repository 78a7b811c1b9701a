import Foundation
import Testing
import TestSupport
import TrustStore
@testable import MDoc

/// ISO 18013-5 Annex D, as published: device MAC, one document, three single-byte negative cases.
@Suite(.enabled(if: Fixtures.sharedVectorsAvailable, "needs ../shared/vectors"))
struct AnnexDVerificationTests {
    func verify(_ name: String = "device_response", at time: String = "2021-01-01T00:00:00Z", skew: TimeInterval = 300,
                readerKey: Bool = true) throws -> VerificationReport {
        let trust = TrustSnapshot(anchors: [try TrustAnchor(derBytes: try Fixtures.annexD("iaca_cert"))])
        var options = VerificationOptions(verificationTime: TestClock.date(time), clockSkew: skew)
        if readerKey { options.readerKey = try ReaderKey(rawScalar: try Fixtures.annexD("e_reader_key_d")) }
        return MDocVerifier(trust: trust).verify(
            deviceResponse: try Fixtures.annexD(name), sessionTranscript: try Fixtures.annexD("session_transcript"),
            options: options)
    }

    func failed(_ report: VerificationReport) -> [VerificationErrorCode] {
        report.documents.flatMap(\.checks).filter { $0.status == .failed }.compactMap(\.code)
    }

    @Test func verifiesWithDeviceMac() throws {
        let report = try verify()
        #expect(report.verified)
        #expect(report.failureCode == nil)
        let document = try #require(report.documents.first)
        #expect(document.docType == "org.iso.18013.5.1.mDL")
        #expect(document.deviceAuthentication == .mac)
        #expect(document.checks.map(\.id) == VerificationCheckID.allCases)
        #expect(document.check(.issuerValueDigests)?.detail == "6 digests match (SHA-256)")
        // Annex D certificates put the CRL distribution point as a dNSName: a profile warning, not a failure.
        #expect(document.check(.issuerCertificateProfile)?.status == .warning)
        #expect(document.check(.issuerCertificateProfile)?.code == .certificateProfileViolation)
        #expect(document.check(.msoStatus)?.status == .notApplicable)
        #expect(document.check(.deviceKeyAuthorizations)?.status == .notApplicable)
        #expect(document.issuer.iacaSHA256 == "6bdac7eb36008bafe71f199e5da3cf498c35c16100d748ddb1044f6643c0f829")
        #expect(document.issuer.country == "US")
    }

    @Test func claimsAreDecodedAndTyped() throws {
        let document = try #require(try verify().documents.first)
        let ns = "org.iso.18013.5.1"
        #expect(document.claims.map(\.identifier) == [
            "family_name", "issue_date", "expiry_date", "document_number", "portrait", "driving_privileges",
        ])
        #expect(document.claim(ns, "family_name") == .text("Doe"))
        #expect(document.claim(ns, "issue_date") == .fullDate("2019-10-20"))
        #expect(document.claim(ns, "expiry_date") == .fullDate("2024-10-20"))
        #expect(document.claim(ns, "document_number") == .text("123456789"))
        #expect(document.claim(ns, "portrait") == .bytes(try Fixtures.annexD("portrait")))
        #expect(document.claim(ns, "driving_privileges") == .array([
            .map([("vehicle_category_code", .text("A")), ("issue_date", .fullDate("2018-08-09")),
                  ("expiry_date", .fullDate("2024-10-20"))]),
            .map([("vehicle_category_code", .text("B")), ("issue_date", .fullDate("2017-02-23")),
                  ("expiry_date", .fullDate("2024-10-20"))]),
        ]))
        #expect(document.claims.allSatisfy { $0.verified })
    }

    @Test func badDigestFailsOnlyTheDigestCheck() throws {
        let report = try verify("device_response_bad_digest_family_name")
        #expect(!report.verified)
        #expect(failed(report) == [.digestMismatch])
        let document = try #require(report.documents.first)
        #expect(document.check(.issuerValueDigests)?.detail?.contains("org.iso.18013.5.1/family_name (digestID 0)") == true)
        #expect(document.claim("org.iso.18013.5.1", "family_name") == .text("Foe"))
        #expect(document.claims.allSatisfy { !$0.verified })
    }

    @Test func badDeviceMacFailsOnlyDeviceAuthentication() throws {
        #expect(failed(try verify("device_response_bad_device_mac")) == [.deviceMacInvalid])
    }

    @Test func badIssuerSignatureFailsOnlyTheSignature() throws {
        #expect(failed(try verify("device_response_bad_issuer_signature")) == [.issuerSignatureInvalid])
    }

    @Test func documentSignerExpiredIn2022() throws {
        let report = try verify(at: "2022-01-01T00:00:00Z")
        #expect(report.failureCode == .issuerCertificateExpired)
        #expect(failed(report) == [.issuerCertificateExpired, .msoExpired])
    }

    @Test func justAfterDSExpiryOnlyTheChainFails() throws {
        #expect(failed(try verify(at: "2021-10-01T00:00:01Z", skew: 0)) == [.issuerCertificateExpired])
    }

    @Test func oneSecondBeforeValidFromOnlyTheMSOValidityFails() throws {
        #expect(failed(try verify(at: "2020-10-01T13:30:01Z", skew: 0)) == [.msoNotYetValid])
        // Within the default skew it is accepted.
        #expect(try verify(at: "2020-10-01T13:30:01Z").verified)
    }

    @Test func deviceMacNeedsTheReaderKey() throws {
        #expect(failed(try verify(readerKey: false)) == [.readerKeyRequired])
    }

    @Test func wrongTranscriptFailsTheMac() throws {
        let trust = TrustSnapshot(anchors: [try TrustAnchor(derBytes: try Fixtures.annexD("iaca_cert"))])
        var options = VerificationOptions(verificationTime: TestClock.date("2021-01-01T00:00:00Z"))
        options.readerKey = try ReaderKey(rawScalar: try Fixtures.annexD("e_reader_key_d"))
        let report = MDocVerifier(trust: trust).verify(
            deviceResponse: try Fixtures.annexD("device_response"), sessionTranscript: [0x83, 0xf6, 0xf6, 0x80],
            options: options)
        #expect(failed(report) == [.deviceMacInvalid])
    }

    @Test func withoutTheIACATheIssuerIsUntrusted() throws {
        var options = VerificationOptions(verificationTime: TestClock.date("2021-01-01T00:00:00Z"))
        options.readerKey = try ReaderKey(rawScalar: try Fixtures.annexD("e_reader_key_d"))
        let report = MDocVerifier(trust: .empty).verify(
            deviceResponse: try Fixtures.annexD("device_response"),
            sessionTranscript: try Fixtures.annexD("session_transcript"), options: options)
        #expect(failed(report) == [.issuerCertificateUntrusted])
    }

    @Test func statusListMSOIsParsedAndReportedUnchecked() throws {
        // The TSL example is an issuerAuth only; wrap it in a minimal document to run the checks.
        let issuerAuth = try Fixtures.annexD("tsl_draft_issuer_auth_with_status")
        var document: [UInt8] = [0xa1, 0x67] + Array("version".utf8) + [0x63] + Array("1.0".utf8)
        document = [0xa3, 0x67] + Array("version".utf8) + [0x63] + Array("1.0".utf8)
            + [0x66] + Array("status".utf8) + [0x00]
            + [0x69] + Array("documents".utf8) + [0x81, 0xa2]
            + [0x67] + Array("docType".utf8) + [0x75] + Array("org.iso.18013.5.1.mDL".utf8)
            + [0x6c] + Array("issuerSigned".utf8) + [0xa1, 0x6a] + Array("issuerAuth".utf8) + issuerAuth
        let trust = TrustSnapshot(anchors: [try TrustAnchor(derBytes: try Fixtures.annexD("iaca_cert"))])
        let report = MDocVerifier(trust: trust).verify(
            deviceResponse: document, sessionTranscript: try Fixtures.annexD("session_transcript"),
            options: VerificationOptions(verificationTime: TestClock.date("2025-01-01T00:00:00Z")))
        let result = try #require(report.documents.first)
        #expect(result.check(.msoStatus)?.status == .warning)
        #expect(result.check(.msoStatus)?.code == .statusUnchecked)
        #expect(result.check(.issuerSignature)?.status == .passed)
        #expect(result.check(.issuerCertificateChain)?.status == .passed)
        #expect(failed(report) == [.deviceAuthMissing])
    }
}
