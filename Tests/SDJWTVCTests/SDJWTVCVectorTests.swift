import Foundation
import MDoc
import SDJWT
import SDJWTVC
import StrictJSON
import TestSupport
import Testing
import TrustStore

/// Every generated case but the revocation ones (StatusListTests serve those lists over loopback): the verdict, the
/// failing check and its code, the warnings, the processed claims and the disclosed paths the manifest expects.
@Suite struct SDJWTVCVectorTests {
    static let cases = SDJWTVCVectors.cases.filter { $0.expect["check"]?.string != "sdjwt.status" && !$0.name.hasPrefix("valid-status") }

    @Test func manifestHasTheCases() {
        #expect(SDJWTVCVectors.cases.count >= 80)
        #expect(Self.cases.count >= 70)
    }

    @Test(arguments: cases)
    func verdictAsTheManifestSays(_ testCase: SDJWTVCVectors.Case) throws {
        let verifier = SDJWTVCVerifier(trust: try SDJWTVCVectors.trust())
        let options = try SDJWTVCVectors.options(testCase)
        let prepared = verifier.prepare(try testCase.presentation, options: options)
        #expect(prepared.statusReference == nil, "no status list may be looked up for \(testCase.name)")
        let result = verifier.finish(prepared, statusEvidence: nil)
        let expect = testCase.expect
        let verified = expect["verified"]?.bool ?? false
        switch result {
        case .failure(let code, let detail):
            #expect(!verified, "\(testCase.name) failed as a whole: \(code) \(detail)")
            #expect(expect["check"] == .null || expect["check"] == nil)
            #expect(code.rawValue == expect["code"]?.string)
        case .report(let report):
            #expect(report.verified == verified, "\(testCase.name): \(report.checks.filter { $0.status == .failed })")
            #expect(report.checks.map(\.id) == SDJWTVCCheckID.allCases)
            if let check = expect["check"]?.string {
                let failing = report.checks.first { $0.status == .failed }
                #expect(failing?.id.rawValue == check, "\(testCase.name): \(report.checks)")
                #expect(failing?.code?.rawValue == expect["code"]?.string)
            } else {
                #expect(expect["code"]?.string == nil)
            }
            for warning in expect["warnings"]?.array ?? [] {
                let check = report.checks.first { $0.id.rawValue == warning["check"]?.string }
                #expect(check?.status == .warning)
                #expect(check?.code?.rawValue == warning["code"]?.string)
            }
            if verified { try compareClaims(report, testCase, options: options) }
        }
    }

    func compareClaims(_ report: SDJWTVCReport, _ testCase: SDJWTVCVectors.Case, options: SDJWTVCOptions) throws {
        let expected = try #require(testCase.expect["claims"])
        let expectedJSON = SDJWTVCVectors.json(expected)
        let claims = SDJWTVCVectors.sorted(try #require(report.claims))
        if let query = options.query {
            // With a query the report keeps what it asked for: the members its paths start with.
            let wanted = Set(query.claims.compactMap { claim -> String? in
                if case .name(let name)? = claim.path.first { return name }
                return nil
            })
            guard case .object(let members) = expectedJSON else { Issue.record("claims are not an object"); return }
            #expect(claims == .object(members.filter { wanted.contains($0.0) }))
        } else {
            #expect(claims == expectedJSON)
        }
        let disclosed = Set((testCase.expect["disclosed"]?.array ?? []).map { path in
            path.array.map { element -> ClaimPathComponent in
                if case .integer(let index) = element { return .index(Int(index)) }
                return .name(element.string ?? "")
            }
        })
        #expect(Set(report.disclosedPaths) == disclosed)
    }

    /// Holder-asserted data stays apart: the KB-JWT's nonce, audience and time are in `keyBinding`, never in `claims`.
    @Test func keyBindingIsReportedApartFromTheClaims() throws {
        let testCase = try #require(SDJWTVCVectors.cases.first { $0.name == "valid" })
        let verifier = SDJWTVCVerifier(trust: try SDJWTVCVectors.trust())
        let options = try SDJWTVCVectors.options(testCase)
        guard case .report(let report) = verifier.finish(verifier.prepare(try testCase.presentation, options: options), statusEvidence: nil)
        else { Issue.record("no report"); return }
        #expect(report.keyBinding?.nonce == options.keyBinding.nonce)
        #expect(report.keyBinding?.audience == options.keyBinding.audience)
        #expect(report.claims?[member: "nonce"] == nil)
        #expect(report.issuer.anchorSHA256 != nil)
        #expect(report.vct == "urn:eudi:pid:1")
    }

    /// An anchor scoped to other vct values refuses the credential with its own code.
    @Test func anchorsAreScopedByVCT() throws {
        let testCase = try #require(SDJWTVCVectors.cases.first { $0.name == "valid" })
        let scoped = try SDJWTVCVectors.trust().anchors.map { anchor -> TrustAnchor in
            var copy = anchor
            copy.metadata = TrustAnchorMetadata(docTypes: ["urn:other:1"])
            return copy
        }
        let verifier = SDJWTVCVerifier(trust: TrustSnapshot(anchors: scoped))
        guard case .report(let report) = verifier.finish(verifier.prepare(try testCase.presentation, options: try SDJWTVCVectors.options(testCase)),
                                                        statusEvidence: nil)
        else { Issue.record("no report"); return }
        #expect(report.check(.issuerCertificateChain)?.code?.rawValue == "ISSUER_NOT_AUTHORIZED_FOR_VCT")
        #expect(!report.verified)
    }

    /// A credential valid as issued names its status list; one that is not names none.
    @Test func statusIsLookedUpOnlyForCredentialsValidAsIssued() throws {
        let verifier = SDJWTVCVerifier(trust: try SDJWTVCVectors.trust())
        let valid = try #require(SDJWTVCVectors.cases.first { $0.name == "status-revoked" })
        #expect(verifier.prepare(try valid.presentation, options: try SDJWTVCVectors.options(valid)).statusReference != nil)
        let untrusted = TrustSnapshot.empty
        let refused = SDJWTVCVerifier(trust: untrusted).prepare(try valid.presentation, options: try SDJWTVCVectors.options(valid))
        #expect(refused.statusReference == nil)
    }
}
