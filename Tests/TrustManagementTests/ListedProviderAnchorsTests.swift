import Foundation
import TestSupport
import Testing
import TrustLists
import X509
@testable import TrustManagement

/// The anchors a providers list (WRPRC, WRPAC) gives: the certificates of its Issuance services that grant trust,
/// whatever else the same certificate is listed for; never one listed only for Revocation, never a withdrawn one.
struct ListedProviderAnchorsTests {
    static func grant(_ file: String, purpose: LoTEGrant.Purpose, grantsTrust: Bool = true) throws -> LoTEGrant {
        let pem = try Fixtures.text(Fixtures.testVectors.appendingPathComponent(file))
        let certificate = try Certificate(pemEncoded: pem)
        let body = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        let der = try #require(Data(base64Encoded: body).map { Array($0) })
        return LoTEGrant(certificate: certificate, der: der, sha256: file, serviceType: "http://uri.etsi.org/19602/SvcType/WRPRC/\(purpose)",
                         purpose: purpose, entityName: "TEST-ONLY", grantsTrust: grantsTrust, country: "DE")
    }

    @Test func onlyIssuanceServicesThatGrantTrustAreAnchors() throws {
        let registrar = "registration/pki/registrar-ca.pem", other = "registration/pki/other-ca.pem", reader = "demo/reader-root.pem"
        let verified = VerifiedLoTE(
            source: "wrprc", kind: .wrprc, sequenceNumber: 1, issued: Date(timeIntervalSince1970: 0),
            nextUpdate: Date(timeIntervalSince1970: 86_400), operatorName: "TEST-ONLY", signer: "TEST-ONLY", sha256: "00",
            grants: [try Self.grant(registrar, purpose: .issuance), try Self.grant(registrar, purpose: .revocation),
                     try Self.grant(other, purpose: .revocation), try Self.grant(reader, purpose: .issuance, grantsTrust: false)],
            skipped: [])
        let anchors = ListedProviderAnchors.anchors(of: verified)
        let expected = try Certificate(pemEncoded: try Fixtures.text(Fixtures.testVectors.appendingPathComponent(registrar)))
        #expect(anchors.map(\.certificate) == [expected])

        let providers = ListedProviderAnchors(role: .registrationCertificates)
        let result = try providers.importList(verified, dryRun: false, now: Date(timeIntervalSince1970: 0))
        #expect(result.trustSet == "registrationProviders" && result.diff.added.count == 1)
        #expect(providers.certificates == [expected] && providers.version == 1)
        #expect(providers.withdraw("lote:wrprc") && providers.certificates.isEmpty && providers.version == 2)
    }
}
