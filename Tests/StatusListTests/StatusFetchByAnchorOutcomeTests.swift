import Foundation
import MDoc
import StatusList
import Testing
import TestSupport
import TrustStore

/// The status of a document that is valid as issued is always looked up, whatever the chain and profile checks
/// granted: a chain that holds only with a warning the operator granted (the pre-publication EKU under an IACA named
/// lenient) or a profile warning is still the issuer's chain, so a revoked document fails `STATUS_REVOKED`. A chain
/// or profile that fails means nothing is fetched, and `mso.status` says why it did not apply
/// (`anchorCases` in TestVectors/status/manifest.json, made by `status_lists.py`).
@Suite(.serialized)
struct StatusFetchByAnchorOutcomeTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let json: JSONValue
        var testDescription: String { json["name"]?.string ?? "?" }
    }

    static let cases: [Case] = (StatusListCaseTests.manifest?["anchorCases"]?.array ?? []).map(Case.init)

    @Test func theManifestCoversEveryOutcomeOfTheChainAndProfileChecks() {
        let outcomes = Set(Self.cases.flatMap { [
            "chain " + ($0.json["expect"]?["issuer.certificateChain"]?.string ?? ""),
            "profile " + ($0.json["expect"]?["issuer.certificateProfile"]?.string ?? ""),
        ] })
        #expect(outcomes.isSuperset(of: ["chain passed", "chain warning", "chain failed",
                                         "profile passed", "profile warning", "profile failed"]))
    }

    @Test(arguments: cases)
    func theListIsLookedUpExactlyWhenTheDocumentIsValidAsIssued(_ testCase: Case) async throws {
        let server = try StatusListServer()
        let json = testCase.json
        let trust = try StatusListCaseTests.trust()
        let anchor = try #require(trust.anchors.first?.sha256)
        let lenient = json["lenient"]?.bool == true
        let options = VerificationOptions(verificationTime: StatusListCaseTests.time,
                                          profileChecksByAnchor: lenient ? [anchor: .lenient] : [:])
        let response = try DeviceResponse(bytes: try StatusListCaseTests.file(json, "deviceResponse"))
        let verifier = MDocVerifier(trust: trust)
        let prepared = verifier.prepare(response, sessionTranscript: try StatusListCaseTests.file(json, "sessionTranscript"),
                                        options: options)
        let evidence = await StatusListCaseTests.resolver().evidence(for: prepared.statusReferences, trust: trust,
                                                                     now: StatusListCaseTests.time)
        let report = verifier.finish(prepared, statusEvidence: evidence)
        let fetches = server.fetches(try #require(json["list"]?.string))
        await server.stop()
        let document = try #require(report.documents.first)
        let expect = try #require(json["expect"])
        for id in [VerificationCheckID.issuerCertificateChain, .issuerCertificateProfile] {
            #expect(document.check(id)?.status.rawValue == expect[id.rawValue]?.string, "\(id.rawValue)")
        }
        let status = try #require(document.check(.msoStatus))
        #expect(status.status.rawValue == expect["outcome"]?.string, "\(status.detail ?? "")")
        #expect(status.code?.rawValue == expect["code"]?.string, "\(status.detail ?? "")")
        let fetched = json["fetched"]?.bool == true
        #expect(prepared.statusReferences.count == (fetched ? 1 : 0))
        #expect(fetches == (fetched ? 1 : 0))
        if !fetched { #expect(status.detail?.hasPrefix("not looked up: the document is not valid as issued") == true) }
        // A revoked document never verifies, whatever was granted.
        if expect["code"]?.string == "STATUS_REVOKED" { #expect(!document.verified) }
    }
}
