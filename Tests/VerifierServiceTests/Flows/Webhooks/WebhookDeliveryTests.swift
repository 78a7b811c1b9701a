import Foundation
import Testing
import TestSupport

/// Results pushed, against real `verifierd serve` processes (`scripts/ci/webhook-check.py`): Standard Webhooks
/// deliveries received on a loopback server and verified with PyPI's `standardwebhooks`, retried after two failures,
/// kept across a restart (the memory store's outbox directory) and across the death of the replica that took the
/// answer (the database's outbox, two replicas on a throwaway PostgreSQL cluster); long polls answered as the wallet
/// answers, on the same replica and across replicas.
@Suite(.serialized)
struct WebhookDeliveryTests {
    /// Every step's JSON line, by name.
    static func steps(_ output: String) -> [String: [String: Any]] {
        var steps: [String: [String: Any]] = [:]
        for line in output.split(separator: "\n") {
            if let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], let step = object["step"] as? String {
                steps[step] = object
            }
        }
        return steps
    }

    @Test(.enabled(if: PostgresTestCluster.enabled, "no PostgreSQL binaries (initdb, pg_ctl) found: install Debian's postgresql"))
    func deliveredSignedAtLeastOnceAcrossRestartsAndReplicas() throws {
        let cluster = try PostgresTestCluster()
        defer { cluster.stopAndDelete() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("verifierd-webhooks-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let key = folder.appendingPathComponent("session.key")
        try Data(Data((0..<32).map { _ in UInt8.random(in: 0...255) }).base64EncodedString().utf8).write(to: key)
        let run = try ProcessRunner.run([
            "python3", "scripts/ci/webhook-check.py", "--verifierd", CommandLineTests.locate().path,
            "--work", folder.appendingPathComponent("work").path,
            "--postgres-url", try cluster.makeDatabase(), "--session-key", key.path,
        ])
        let steps = Self.steps(run.output)
        #expect(run.status == 0, "\(run.output)\n\(run.error)")
        for name in ["retried", "signature", "long-poll", "restart", "cross-replica", "replica-death"] {
            #expect(steps[name]?["ok"] as? Bool == true, "\(name): \(steps[name] ?? [:])\n\(run.error)")
        }
        // Three attempts (503, 503, 200) with one webhook-id; the long poll within 100 ms of the wallet's answer.
        #expect(steps["retried"]?["statuses"] as? [Int] == [503, 503, 200])
        #expect((steps["long-poll"]?["lag_ms"] as? Double ?? .infinity) < 100)
        print("webhook figures: \(steps["retried"] ?? [:]) \(steps["long-poll"] ?? [:]) \(steps["replica-death"] ?? [:]) \(steps["cross-replica"] ?? [:])")
    }
}
