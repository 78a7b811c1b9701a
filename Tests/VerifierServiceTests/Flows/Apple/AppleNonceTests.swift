import Foundation
import Testing
import TestSupport

/// `POST /v1/apple/nonces` and `apple.requireIssuedNonce` on the default (memory) store; the PostgreSQL store is
/// covered across replicas by ReplicaTests. Envelopes for issued nonces come from the independent Python wallet.
struct AppleNonceTests {
    static let demo = Fixtures.testVectors.appendingPathComponent("demo")

    func harness(_ clock: ManualClock) throws -> ServiceHarness {
        try ServiceHarness(anchors: [Self.demo.appendingPathComponent("trusted-iaca/demo-iaca.pem")], clock: clock) { config in
            config["apple"] = ["merchantId": "com.example.verifierd.demo", "teamId": "DEMOTEAM01",
                               "encryptionKeys": [Self.demo.appendingPathComponent("keys/merchant-encryption.pem").path],
                               "allowedTeamIds": ["OTHERTEAM1"], "requireIssuedNonce": true, "nonceTTLSeconds": 300]
        }
    }

    func issue(_ harness: ServiceHarness, _ body: String = "{}") async throws -> String {
        let reply = try await harness.request("POST", "/v1/apple/nonces", body: Data(body.utf8),
                                              headers: ["Content-Type": "application/json"])
        #expect(reply.status == 201, "\(reply.text)")
        let nonce = try #require(reply.json["nonce"] as? String)
        #expect(Data(base64Encoded: nonce)?.count == 32)
        #expect(reply.json["expiresAt"] as? String == "2030-01-01T00:05:00Z")
        return nonce
    }

    /// A verify body for `nonce`, sealed by TestVectors/generator/apple_wallet.py.
    func envelope(for nonce: String) throws -> Data {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("apple-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try ProcessRunner.run(["python3", "TestVectors/generator/apple_wallet.py", "--nonce", nonce, "--out", out.path])
        #expect(result.status == 0, "\(result.error)")
        return try Data(contentsOf: out)
    }

    func verify(_ harness: ServiceHarness, _ body: Data) async throws -> ServiceHarness.Response {
        try await harness.request("POST", "/v1/apple/verify", body: body, headers: ["Content-Type": "application/json"])
    }

    @Test func anIssuedNonceVerifiesOnceAndOtherNoncesAreRefusedWithTheirCode() async throws {
        let clock = ManualClock(TestClock.date("2030-01-01T00:00:00Z"))
        let harness = try harness(clock)
        defer { Task { await harness.stop() } }
        let body = try envelope(for: try await issue(harness))
        let first = try await verify(harness, body)
        #expect(first.status == 200 && first.json["verified"] as? Bool == true, "\(first.text)")
        let replay = try await verify(harness, body)
        #expect(replay.status == 409 && replay.json["code"] as? String == "NONCE_ALREADY_USED")
        // The committed demo request carries a nonce the service never issued.
        let unissued = try await verify(harness, try Data(contentsOf: Self.demo.appendingPathComponent("verify-request.json")))
        #expect(unissued.status == 400 && unissued.json["code"] as? String == "NONCE_UNKNOWN")
        // Issued for another team: refused for this one (and consumed).
        let otherTeam = try envelope(for: try await issue(harness, #"{"teamId": "OTHERTEAM1"}"#))
        let mismatch = try await verify(harness, otherTeam)
        #expect(mismatch.status == 400 && mismatch.json["code"] as? String == "NONCE_UNKNOWN", "\(mismatch.text)")
        // A team that is not allowed cannot be asked for.
        let refused = try await harness.request("POST", "/v1/apple/nonces", body: Data(#"{"teamId": "NOTALLOWED"}"#.utf8),
                                                headers: ["Content-Type": "application/json"])
        #expect(refused.status == 400 && refused.json["code"] as? String == "TEAM_ID_NOT_ALLOWED")
        // Past nonceTTLSeconds: expired.
        let late = try envelope(for: try await issue(harness))
        clock.advance(by: 301)
        let expired = try await verify(harness, late)
        #expect(expired.status == 410 && expired.json["code"] as? String == "NONCE_EXPIRED")
        await harness.stop()
    }
}
