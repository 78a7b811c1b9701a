import Foundation
import SessionStore
import Testing
import TestSupport

/// The independent Python wallet (`TestVectors/generator/web_wallet.py`: cbor2, cryptography, pyhpke) against the
/// running service, once per `readerAuth.mode`. The wallet checks what the service sends by itself (reader
/// signatures, the AKI/SKI link, nonce, deterministic CBOR), answers, and checks each outcome; every scenario
/// must pass.
@Suite(.serialized)
struct WebWalletInteropTests {
    static let wallet = Fixtures.testVectors.appendingPathComponent("generator/web_wallet.py")
    static let readerRoot = Fixtures.testVectors.appendingPathComponent("demo/reader-root.pem")

    struct Outcome {
        let status: Int32
        let scenarios: [String: [String: Any]]
        let summary: [String: Any]
        let output: String
    }

    static func runWallet(port: Int, mode: String, scenarios: [String]? = nil, script: URL = wallet) throws -> Outcome {
        var arguments = ["python3", script.path, "--base-url", "http://127.0.0.1:\(port)", "--reader-root", readerRoot.path,
                         "--mode", mode, "--token", ServiceHarness.integratorToken]
        if let scenarios { arguments += ["--scenarios", scenarios.joined(separator: ",")] }
        let run = try ProcessRunner.run(arguments)
        let output = run.output, error = run.error
        var results: [String: [String: Any]] = [:]
        var summary: [String: Any] = [:]
        for line in output.split(separator: "\n") {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { continue }
            if let name = object["scenario"] as? String { results[name] = object }
            if let found = object["summary"] as? [String: Any] { summary = found }
        }
        return Outcome(status: run.status, scenarios: results, summary: summary, output: output + error)
    }

    static let everyScenario = [
        "request-shape", "custom-request", "origin-not-allowed", "verified", "replay", "declined", "wrong-origin",
        "tampered-ciphertext", "other-session-key", "element-not-requested", "malformed-response", "unknown-session",
    ]

    func expectAllPassed(_ outcome: Outcome, _ names: [String]) {
        #expect(outcome.status == 0, "wallet output:\n\(outcome.output)")
        for name in names {
            #expect(outcome.scenarios[name]?["ok"] as? Bool == true, "\(name): \(outcome.scenarios[name] ?? [:])")
        }
    }

    @Test(arguments: ["readerAuth", "readerAuthAll"])
    func theWalletVerifiesEveryScenario(mode: String) async throws {
        let harness = try WebFlowTests.harness(mode: mode)
        defer { Task { await harness.stop() } }
        let outcome = try Self.runWallet(port: harness.server.port, mode: mode, scenarios: Self.everyScenario)
        expectAllPassed(outcome, Self.everyScenario)
        await harness.stop()
    }

    /// The wallet really checks: a wallet expecting both kinds of reader signature rejects a request that carries
    /// only one, and one expecting readerAuthAll rejects per-DocRequest signatures.
    @Test func theWalletNoticesTheWrongReaderAuthentication() async throws {
        let harness = try WebFlowTests.harness(mode: "readerAuth")
        defer { Task { await harness.stop() } }
        for expected in ["both", "readerAuthAll"] {
            let outcome = try Self.runWallet(port: harness.server.port, mode: expected, scenarios: ["request-shape"])
            #expect(outcome.status == 1)
            #expect(outcome.scenarios["request-shape"]?["ok"] as? Bool == false)
        }
        await harness.stop()
    }

    /// Mode `both`, every scenario, then 500 sessions from 16 threads, each answered twice at once: exactly one
    /// verification per session. After expiry the store is empty again.
    @Test func bothModesAndFiveHundredConcurrentSessions() async throws {
        let clock = ManualClock(TestClock.date("2030-01-01T00:00:00Z"))
        let harness = try WebFlowTests.harness(mode: "both", clock: clock)
        defer { Task { await harness.stop() } }
        let baseline = Self.residentBytes()
        let outcome = try Self.runWallet(port: harness.server.port, mode: "both", scenarios: Self.everyScenario + ["concurrency"])
        expectAllPassed(outcome, Self.everyScenario + ["concurrency"])
        let store = harness.service.sessionStore
        let afterRun = await store.statistics(now: clock.now)
        // Every session was used except the two that request-shape makes only to compare.
        #expect(afterRun.live == 2)
        #expect(afterRun.tombstones >= 500)
        let peak = Self.residentBytes()
        clock.advance(by: 301 + 301)
        await store.sweep(now: clock.now)
        #expect(await store.statistics(now: clock.now) == SessionStoreStatistics(live: 0, tombstones: 0, maximum: 100_000, liveBytes: 0))
        let after = Self.residentBytes()
        print("web sessions: resident memory \(baseline >> 20) MiB before, \(peak >> 20) MiB after 500+ sessions, "
              + "\(after >> 20) MiB after expiry; wallet: \(outcome.scenarios["concurrency"]?["detail"] ?? "")")
        await harness.stop()
    }

    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        return fields.count > 1 ? (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE))) : 0
    }
}
