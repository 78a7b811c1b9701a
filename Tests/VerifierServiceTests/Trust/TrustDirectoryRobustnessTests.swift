import Foundation
import Testing
import TestSupport
import TrustManagement
import TrustStore
import VerifierService

/// The trust directory cannot be wedged: duplicates merge, a damaged file shows in /readyz and never blocks a
/// write, the last anchor is not removed by accident, and every change names the admin call.
@Suite(.serialized)
struct TrustDirectoryRobustnessTests {
    static let p256 = ServiceHarness.pki.appendingPathComponent("iaca-p256.pem")
    static let p384 = ServiceHarness.pki.appendingPathComponent("iaca-p384.pem")

    @Test func theSameCertificateTwiceMergesOrIsA400() async throws {
        let harness = try ServiceHarness(anchors: [Self.p256])
        defer { Task { await harness.stop() } }
        // A second file with the same certificate (placed by hand) is one anchor, and writes keep working.
        try FileManager.default.copyItem(at: Self.p256, to: harness.folder.appendingPathComponent("trusted-iaca/copy.pem"))
        #expect(try await harness.admin("POST", "/v1/admin/iaca/reload").status == 200)
        #expect(harness.service.iacaTrust.snapshot.anchors.count == 1)
        #expect(try await harness.admin("POST", "/v1/admin/iaca", body: try Data(contentsOf: Self.p384)).status == 201)
        // Twice in one PUT or POST: 400, nothing changes; the next write still works.
        let twice = try Data(contentsOf: Self.p384) + (try Data(contentsOf: Self.p384))
        for method in ["PUT", "POST"] {
            let answer = try await harness.admin(method, "/v1/admin/iaca", body: twice)
            #expect(answer.status == 400, "\(method)")
            #expect(answer.json["code"] as? String == "IACA_DUPLICATE")
        }
        let put = try await harness.admin("PUT", "/v1/admin/iaca", body: try Data(contentsOf: Self.p256))
        #expect(put.status == 200)
        // GET shows the files as written, without a reload.
        let listed = try #require(put.json["anchors"] as? [[String: Any]])
        #expect(listed.allSatisfy { ($0["file"] as? String) == "\($0["sha256"] as! String).pem" })
        await harness.stop()
    }

    @Test func aDamagedDirectoryShowsInReadinessAndAPutRepairsIt() async throws {
        let harness = try ServiceHarness(anchors: [Self.p256, Self.p384])
        defer { Task { await harness.stop() } }
        #expect(try await harness.admin("POST", "/v1/admin/iaca", body: try Data(contentsOf: ServiceHarness.pki.appendingPathComponent("iaca-p521.pem"))).status == 201)
        let active = harness.service.iacaTrust.directory.activeFolder
        try Data("-----BEGIN CERTIFICATE-----\nnot base64\n-----END CERTIFICATE-----\n".utf8).write(to: active.appendingPathComponent("broken.pem"))
        harness.service.iacaTrust.reloadIfChanged(actor: "test")
        #expect(harness.service.iacaTrust.snapshot.anchors.count == 3, "the set in force stays")
        let ready = try await harness.request("GET", "/readyz")
        #expect(ready.status == 200)
        #expect(ready.json["status"] as? String == "degraded")
        #expect((ready.json["degraded"] as? [String])?.first?.contains("broken.pem") == true)
        #expect(try await harness.request("GET", "/metrics").text.contains("verifierd_trust_directory_loads 0"))
        // DELETE works from the set in force, and so does a clean PUT; the directory loads again.
        let p384 = try #require(harness.service.iacaTrust.snapshot.anchors.first { $0.subject.contains("P-384") })
        #expect(try await harness.admin("DELETE", "/v1/admin/iaca/\(p384.sha256)").status == 204)
        #expect(try await harness.admin("PUT", "/v1/admin/iaca", body: try Data(contentsOf: Self.p256)).status == 200)
        #expect(try await harness.request("GET", "/readyz").json["status"] as? String == "ready")
        #expect(try await harness.request("GET", "/metrics").text.contains("verifierd_trust_directory_loads 1"))
        #expect(try harness.service.iacaTrust.directory.load().anchors.count == 1)
        await harness.stop()
    }

    @Test func theLastAnchorIsRemovedOnlyOnPurpose() async throws {
        let harness = try ServiceHarness(anchors: [Self.p256])
        defer { Task { await harness.stop() } }
        let fingerprint = try #require(harness.service.iacaTrust.snapshot.anchors.first?.sha256)
        let refused = try await harness.admin("DELETE", "/v1/admin/iaca/\(fingerprint)")
        #expect(refused.status == 409)
        #expect(refused.json["code"] as? String == "TRUST_SET_WOULD_BE_EMPTY")
        let deleted = try await harness.request("DELETE", "/v1/admin/iaca/\(fingerprint)?allowEmpty=true",
                                                headers: ["Authorization": "Bearer \(ServiceHarness.adminToken)", "X-Request-Id": "req-delete-last-1"])
        #expect(deleted.status == 204)
        // The expiry gauge follows the empty set (0: nothing can verify) instead of keeping the old value.
        let metrics = try await harness.request("GET", "/metrics").text
        #expect(metrics.contains("verifierd_trust_anchors 0"))
        #expect(metrics.contains("verifierd_trust_anchor_soonest_expiry_seconds 0"))
        #expect(try await harness.request("GET", "/readyz").status == 503)
        // The trust-change log line and the console's change list carry the admin call's request ID.
        let requestID = try #require(deleted.headers["x-request-id"])
        #expect(harness.logs.all.contains { $0.contains("trust set changed") && $0.contains(requestID) })
        let changes = try #require(try await harness.admin("GET", "/v1/admin/trust/changes").json["changes"] as? [[String: Any]])
        #expect(changes.first?["requestId"] as? String == requestID)
        #expect(changes.first?["action"] as? String == "remove")
        await harness.stop()
    }

    @Test func theDemoConfigurationWritesOutsideTheRepository() async throws {
        let seed = Fixtures.testVectors.appendingPathComponent("demo/trusted-iaca")
        let before = try FileManager.default.contentsOfDirectory(atPath: seed.path).filter { !$0.hasPrefix(".lock") }.sorted()
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("verifierd-seed-\(UUID().uuidString)/trust")
        defer { try? FileManager.default.removeItem(at: work.deletingLastPathComponent()) }
        let configuration = try ConfigurationLoader.load(
            file: Fixtures.repositoryRoot.appendingPathComponent("config/verifierd.json"),
            environment: ["VERIFIERD_TRUST_IACA_DIRECTORY": work.path])
        #expect(configuration.trust.seedDirectory?.standardizedFileURL.path == seed.standardizedFileURL.path)
        let service = try VerifierService(configuration: configuration, logger: .init(label: "seed"))
        _ = try await service.iacaTrust.add(try LiveTrustSet.validate([try Fixtures.bytes(Self.p384)].flatMap {
            try CertificateParsing.derCertificates(from: $0) }, allowExpired: false, now: Date()), actor: "test")
        #expect(service.iacaTrust.snapshot.anchors.count == 2)
        #expect(FileManager.default.fileExists(atPath: work.appendingPathComponent("current").path))
        let after = try FileManager.default.contentsOfDirectory(atPath: seed.path).filter { !$0.hasPrefix(".lock") }.sorted()
        #expect(after == before, "the committed demo folder never changes")
        // The default configuration points at a git-ignored working folder.
        let demo = try ConfigurationLoader.load(file: Fixtures.repositoryRoot.appendingPathComponent("config/verifierd.json"), environment: [:])
        #expect(demo.trust.iacaDirectory.path.hasSuffix("/.verifierd/trusted-iaca"))
    }
}
