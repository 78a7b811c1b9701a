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
        if readerKey { options.readerKey = try EphemeralReaderKey(rawScalar: try Fixtures.annexD("e_reader_key_d")) }
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
        #expect(document.checks.map(\.id) == VerificationCheckID.allCases.filter { !$0.rawValue.hasPrefix("zk.") })
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
        options.readerKey = try EphemeralReaderKey(rawScalar: try Fixtures.annexD("e_reader_key_d"))
        let report = MDocVerifier(trust: trust).verify(
            deviceResponse: try Fixtures.annexD("device_response"), sessionTranscript: [0x83, 0xf6, 0xf6, 0x80],
            options: options)
        #expect(failed(report) == [.deviceMacInvalid])
    }

    @Test func withoutTheIACATheIssuerIsUntrusted() throws {
        var options = VerificationOptions(verificationTime: TestClock.date("2021-01-01T00:00:00Z"))
        options.readerKey = try EphemeralReaderKey(rawScalar: try Fixtures.annexD("e_reader_key_d"))
        let report = MDocVerifier(trust: .empty).verify(
            deviceResponse: try Fixtures.annexD("device_response"),
            sessionTranscript: try Fixtures.annexD("session_transcript"), options: options)
        #expect(failed(report) == [.issuerCertificateUntrusted])
    }

    /// The Token Status List draft's IssuerAuth, under the Annex D IACA, wrapped in a minimal document.
    func tslDocument() throws -> [UInt8] {
        let issuerAuth = try Fixtures.annexD("tsl_draft_issuer_auth_with_status")
        return [0xa3, 0x67] + Array("version".utf8) + [0x63] + Array("1.0".utf8)
            + [0x66] + Array("status".utf8) + [0x00]
            + [0x69] + Array("documents".utf8) + [0x81, 0xa2]
            + [0x67] + Array("docType".utf8) + [0x75] + Array("org.iso.18013.5.1.mDL".utf8)
            + [0x6c] + Array("issuerSigned".utf8) + [0xa1, 0x6a] + Array("issuerAuth".utf8) + issuerAuth
    }

    @Test func statusListReferenceIsParsedAndUnresolvedIsUnknown() throws {
        let parsed = try DeviceResponse(bytes: try tslDocument())
        let reference = try #require(parsed.documents.first?.mobileSecurityObject.statusReferences?.statusList)
        #expect(reference.index == 412)
        #expect(reference.uri == "https://example.com/statuslists/1")
        let trust = TrustSnapshot(anchors: [try TrustAnchor(derBytes: try Fixtures.annexD("iaca_cert"))])
        let report = MDocVerifier(trust: trust).verify(
            deviceResponse: try tslDocument(), sessionTranscript: try Fixtures.annexD("session_transcript"),
            options: VerificationOptions(verificationTime: TestClock.date("2025-01-01T00:00:00Z")))
        let result = try #require(report.documents.first)
        // Nothing resolved the list: no statement can be made, and that is never "revoked".
        #expect(result.check(.msoStatus)?.status == .failed)
        #expect(result.check(.msoStatus)?.code == .statusUnknown)
        #expect(result.check(.issuerSignature)?.status == .passed)
        #expect(result.check(.issuerCertificateChain)?.status == .passed)
        #expect(failed(report) == [.deviceAuthMissing, .statusUnknown])
    }

    @Test func statusEvidenceDecidesTheStatusCheck() throws {
        let parsed = try DeviceResponse(bytes: try tslDocument())
        let reference = try #require(parsed.documents.first?.mobileSecurityObject.statusReferences?.statusList)
        let anchor = try TrustAnchor(derBytes: try Fixtures.annexD("iaca_cert"))
        let trust = TrustSnapshot(anchors: [anchor])
        func status(_ evidence: StatusEvidence, policy: StatusPolicy = StatusPolicy()) -> CheckResult? {
            var options = VerificationOptions(verificationTime: TestClock.date("2025-01-01T00:00:00Z"))
            options.statusEvidence = [.statusList(reference): evidence]
            options.statusPolicy = policy
            return MDocVerifier(trust: trust).verify(parsed, sessionTranscript: [0x83, 0xf6, 0xf6, 0xf6], options: options)
                .documents.first?.check(.msoStatus)
        }
        let fromIACA = StatusEvidence.SignerTrust.anchor(sha256: anchor.sha256)
        #expect(status(StatusEvidence(finding: .status(0), signerTrust: fromIACA))?.status == .passed)
        #expect(status(StatusEvidence(finding: .status(1), signerTrust: fromIACA))?.code == .statusRevoked)
        #expect(status(StatusEvidence(finding: .status(2), signerTrust: fromIACA))?.code == .statusSuspended)
        #expect(status(StatusEvidence(finding: .status(3), signerTrust: fromIACA))?.code == .statusUnknown)
        // A list whose signer chains to another IACA says nothing about this document.
        #expect(status(StatusEvidence(finding: .status(1), signerTrust: .anchor(sha256: "00")))?.code == .statusUnknown)
        // A list signed by the document signer itself is not accepted.
        let ds = Array(try #require(try parsed.documents.first?.issuerSigned.issuerAuth.headers.x5chain().first))
        #expect(status(StatusEvidence(finding: .status(0), signerTrust: fromIACA, signerCertificate: ds))?.code == .statusUnknown)
        // Policies: warn turns failures into warnings; unknown=warn only softens unknown.
        #expect(status(StatusEvidence(finding: .status(1), signerTrust: fromIACA), policy: .init(mode: .warn))?.status == .warning)
        #expect(status(.unknown("timeout"), policy: .init(unknown: .warn))?.status == .warning)
        #expect(status(StatusEvidence(finding: .status(1), signerTrust: fromIACA), policy: .init(unknown: .warn))?.status == .failed)
        #expect(status(StatusEvidence(finding: .status(1), signerTrust: fromIACA), policy: .init(mode: .off))?.status == .notApplicable)
    }
}
