import Foundation
import Testing
import TestSupport
import TrustStore
@testable import MDoc

/// RFC 5280 6.1.4 and the ISO 18013-5 Annex B IACA profile on the issuer's certification path, on generated
/// vectors (TestVectors/mdoc/cases, made with Python `cryptography`).
struct CertificationPathRulesTests {
    static let cases = Fixtures.testVectors.appendingPathComponent("mdoc/cases")
    static let iaca = Fixtures.testVectors.appendingPathComponent("pki/iaca-p256.pem")

    func chainCheck(_ name: String, policy: IssuerChainPolicy = .iso18013) throws -> CheckResult {
        var options = VerificationOptions(verificationTime: TestClock.date("2030-01-01T00:00:00Z"))
        options.chainPolicy = policy
        let report = MDocVerifier(trust: try TrustFixtures.anchors([Self.iaca])).verify(
            deviceResponse: try Fixtures.hexFile(Self.cases.appendingPathComponent("\(name).deviceresponse.hex")),
            sessionTranscript: try Fixtures.hexFile(Self.cases.appendingPathComponent("\(name).transcript.hex")),
            options: options)
        return try #require(report.documents.first?.check(.issuerCertificateChain))
    }

    @Test func documentSignerDirectlyUnderTheIACAPasses() throws {
        #expect(try chainCheck("valid-p256-sha256-signature").status == .passed)
        #expect(try chainCheck("valid-x5chain-array-with-iaca").status == .passed)
    }

    /// The IACA profile allows no intermediate CA, even when every signature and validity period is good.
    @Test func intermediateCAIsRefusedByTheIACAProfile() throws {
        let result = try chainCheck("chain-intermediate-ca")
        #expect(result.status == .failed)
        #expect(result.code == .issuerCertificateInvalid)
        #expect(result.detail?.contains("intermediate CA") == true)
    }

    /// With a policy that would allow one intermediate, the IACA's own pathLenConstraint 0 still refuses it.
    @Test func pathLenConstraintOfTheIACAIsEnforced() throws {
        let result = try chainCheck("chain-intermediate-ca", policy: IssuerChainPolicy(maximumIntermediateCAs: 1))
        #expect(result.code == .issuerCertificateInvalid)
        #expect(result.detail?.contains("pathLenConstraint 0") == true)
    }

    /// A certificate that is not a CA never signs another certificate in the path.
    @Test func nonCACertificateNeverSigns() throws {
        let result = try chainCheck("chain-intermediate-not-ca", policy: IssuerChainPolicy(maximumIntermediateCAs: 1))
        #expect(result.code == .issuerCertificateInvalid)
        #expect(result.detail?.contains("not a CA certificate") == true)
        #expect(try chainCheck("chain-intermediate-not-ca").code == .issuerCertificateInvalid)
    }

    @Test func x5chainCountIsCapped() throws {
        let result = try chainCheck("chain-too-long")
        #expect(result.code == .issuerCertificateInvalid)
        #expect(result.detail?.contains("at most 5") == true)
    }

    @Test func x5chainCertificateSizeIsCapped() throws {
        let result = try chainCheck("valid-p256-sha256-signature", policy: IssuerChainPolicy(maximumCertificateBytes: 200))
        #expect(result.code == .issuerCertificateInvalid)
        #expect(result.detail?.contains("at most 200") == true)
    }

    @Test func documentSignerKeyOutsideTheProfileIsRefusedBeforeSignatures() throws {
        let result = try chainCheck("ds-key-not-allowed")
        #expect(result.code == .issuerCertificateInvalid)
        // swift-certificates does not read a secp256k1 key at all; either way no signature is checked.
        #expect(result.detail?.contains("does not parse") == true || result.detail?.contains("no signature was checked") == true)
    }
}
