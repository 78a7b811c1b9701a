import Foundation
@testable import MDoc
import ReportEncoding
import StrictJSON
import Testing

/// The report every mdoc flow answers with: what a caller reads first (`verified`, `code`, `message`) and the rule
/// that claim values appear only in a report that verified.
struct ReportJSONTests {
    let issuer = IssuerSummary(documentSignerSubject: "CN=DS", iacaSubject: "CN=IACA", iacaSHA256: "00", country: "US",
                               documentSignerNotBefore: nil, documentSignerNotAfter: nil)

    func document(signature: CheckStatus) -> DocumentReport {
        let verified = signature == .passed
        let code: VerificationErrorCode? = verified ? nil : .issuerSignatureInvalid
        return DocumentReport(
            docType: "org.iso.18013.5.1.mDL", verified: verified,
            claims: [Claim(nameSpace: "org.iso.18013.5.1", identifier: "family_name", value: .text("Mustermann"),
                           source: .issuerSigned, verified: verified)],
            issuer: issuer, validityInfo: nil, deviceAuthentication: nil,
            checks: [CheckResult(id: .issuerSignature, status: signature, code: code, detail: verified ? nil : "bad signature")],
            notReturned: [])
    }

    func object(_ bytes: [UInt8]) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    @Test func aVerifiedReportCarriesItsIssuerClaims() throws {
        let bytes = ReportJSON.bytes(VerificationReport(documents: [document(signature: .passed)]), includeClaims: true)
        let report = try object(bytes)
        #expect(report["verified"] as? Bool == true)
        #expect(report["code"] == nil && report["message"] == nil)
        #expect(String(decoding: bytes, as: UTF8.self).contains("\"Mustermann\""))
    }

    @Test func aFailedReportNamesItsCodeAndShowsNoClaimValue() throws {
        let bytes = ReportJSON.bytes(VerificationReport(documents: [document(signature: .failed)]), includeClaims: true,
                                     extra: [("sessionId", .string("s-1"))])
        let report = try object(bytes)
        #expect(report["verified"] as? Bool == false)
        #expect(report["code"] as? String == "ISSUER_SIGNATURE_INVALID")
        #expect((report["message"] as? String)?.isEmpty == false)
        #expect(report["sessionId"] as? String == "s-1", "extra members are appended")
        #expect(!String(decoding: bytes, as: UTF8.self).contains("Mustermann"), "no value of a report that failed")
        let documents = try #require(report["documents"] as? [[String: Any]])
        let checks = try #require(documents.first?["checks"] as? [[String: Any]])
        #expect(checks.first?["id"] as? String == "issuer.signature")
        #expect(checks.first?["code"] as? String == "ISSUER_SIGNATURE_INVALID")
    }

    @Test func aResponseLevelFailureHasNoDocuments() throws {
        let report = try object(ReportJSON.bytes(.failure(.envelopeMalformed, "not CBOR"), includeClaims: true))
        #expect(report["verified"] as? Bool == false)
        #expect(report["code"] as? String == "ENVELOPE_MALFORMED")
        #expect(report["message"] as? String == "not CBOR")
        #expect((report["documents"] as? [Any])?.isEmpty == true)
    }

    @Test func timesAreRFC3339InUTC() {
        #expect(ReportJSON.timestamp(Date(timeIntervalSince1970: 1_900_000_000)) == "2030-03-17T17:46:40Z")
    }
}
