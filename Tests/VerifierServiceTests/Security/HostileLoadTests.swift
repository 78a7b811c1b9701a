import Foundation
import Synchronization
import Testing
import TestSupport
@testable import VerifierService

/// The most expensive hostile requests we can build (`scripts/ci/hostile-inputs.py generate`, committed in
/// TestVectors/hostile at reduced size) from 16 clients at once, while a 17th thread asks for /healthz and /readyz.
@Suite(.serialized)
struct HostileLoadTests {
    static let folder = Fixtures.testVectors.appendingPathComponent("hostile")

    static func bodies() throws -> [(name: String, bytes: [UInt8])] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }.sorted()
        return try names.map { ($0, Array(try Data(contentsOf: folder.appendingPathComponent($0)))) }
    }

    @Test func everyHostileRequestIsRefusedWithAReason() async throws {
        let harness = try ServiceHarness(anchors: [ServiceHarness.pki.appendingPathComponent("iaca-p256.pem")])
        defer { Task { await harness.stop() } }
        let bodies = try Self.bodies()
        #expect(bodies.count >= 5)
        for (name, body) in bodies {
            let response = try await harness.request("POST", "/v1/mdoc/verify", body: Data(body),
                                                     headers: ["Content-Type": "application/json"])
            #expect([400, 413, 422].contains(response.status), "\(name): \(response.status)")
            #expect(response.json["verified"] as? Bool != true, "\(name)")
        }
        await harness.stop()
    }

    /// Liveness under load in the debug build the tests use: every probe answers 200 while 16 clients send the
    /// hostile bodies. The production limits (5 ms of CPU per request, 50 ms for a probe) are measured on the
    /// release build by `scripts/ci/hostile-check.sh`, which CI runs: a debug build parses ten times slower.
    @Test func healthAnswersUnderHostileLoad() async throws {
        let harness = try ServiceHarness(anchors: [ServiceHarness.pki.appendingPathComponent("iaca-p256.pem")])
        defer { Task { await harness.stop() } }
        let port = harness.server.port
        let bodies = try Self.bodies().map(\.bytes)
        let deadline = ContinuousClock.now + .seconds(3)
        let sent = Atomic<Int>(0)
        let latencies = Mutex<[Duration]>([])
        let failures = Atomic<Int>(0)
        var threads: [Thread] = []
        for client in 0..<16 {
            threads.append(Thread {
                var index = client
                while ContinuousClock.now < deadline {
                    _ = RawHTTPClient.post(port: port, path: "/v1/mdoc/verify", json: bodies[index % bodies.count])
                    sent.add(1, ordering: .relaxed)
                    index += 1
                }
            })
        }
        threads.append(Thread {
            Thread.sleep(forTimeInterval: 0.3)  // let the load build up
            var probe = 0
            while ContinuousClock.now < deadline {
                let path = probe % 2 == 0 ? "/healthz" : "/readyz"
                let started = ContinuousClock.now
                let status = RawHTTPClient.send(port: port, "GET \(path) HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
                let elapsed = ContinuousClock.now - started
                if status != 200 { failures.add(1, ordering: .relaxed) }
                latencies.withLock { $0.append(elapsed) }
                probe += 1
                Thread.sleep(forTimeInterval: 0.05)
            }
        })
        for thread in threads { thread.start() }
        while ContinuousClock.now < deadline + .milliseconds(500) { try await Task.sleep(for: .milliseconds(100)) }
        // Clients finish their last request after the deadline.
        try await Task.sleep(for: .seconds(2))
        let observed = latencies.withLock { $0 }
        let worst = observed.max() ?? .zero
        #expect(observed.count >= 20)
        #expect(failures.load(ordering: .relaxed) == 0)
        #expect(sent.load(ordering: .relaxed) >= 16)
        #expect(worst < .seconds(1), "worst /healthz or /readyz latency \(worst) over \(observed.count) probes")
        print("hostile load: \(sent.load(ordering: .relaxed)) hostile requests, \(observed.count) health probes, worst \(worst)")
        await harness.stop()
    }
}
