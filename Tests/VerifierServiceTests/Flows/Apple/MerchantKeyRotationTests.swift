import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TestSupport

/// Merchant-key rotation as an operator runs it: keys reload from their files on SIGHUP (a bad file keeps the keys in
/// force), and the access line and `verifierd_apple_envelopes_opened_total` name the `pkRHash` of the key that opened
/// each envelope, the same value README's openssl recipe computes.
@Suite(.serialized)
struct MerchantKeyRotationTests {
    static let demo = Fixtures.testVectors.appendingPathComponent("demo")
    static let token = "demo-integrator-token-TEST-ONLY"

    static func verify(port: Int) async throws -> (status: Int, body: [String: Any]) {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/v1/apple/verify")!)
        request.httpMethod = "POST"
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        request.httpBody = try Data(contentsOf: demo.appendingPathComponent("verify-request.json"))
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0,
                (try? JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:])
    }

    static func metrics(port: Int) async throws -> String {
        let (data, _) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(port)/metrics")!)
        return String(decoding: data, as: UTF8.self)
    }

    /// README's recipe: the SHA-256 of the key's 65-byte public point, computed by openssl.
    static func pkRHash(ofKeyAt file: URL) throws -> String {
        let run = try ProcessRunner.run(["bash", "-c",
            "openssl ec -in \"$0\" -pubout -outform DER 2>/dev/null | tail -c 65 | sha256sum | cut -d' ' -f1", file.path])
        return run.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func waitFor(_ condition: () async throws -> Bool) async throws -> Bool {
        for _ in 0..<100 {
            if try await condition() { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return false
    }

    @Test func sighupRotatesTheKeysAndEachEnvelopeNamesItsKey() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("verifierd-merchant-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let key = folder.appendingPathComponent("merchant.pem")
        // Start with another P-256 key: the demo envelope was sealed to the demo merchant key, so none opens it.
        try FileManager.default.copyItem(at: Self.demo.appendingPathComponent("keys/reader-token.pem"), to: key)
        let config = folder.appendingPathComponent("verifierd.json")
        try Data("""
            {"server": {"host": "127.0.0.1", "port": 0},
             "apple": {"merchantId": "com.example.verifierd.demo", "teamId": "DEMOTEAM01", "encryptionKeys": ["merchant.pem"]},
             "integrators": {"tokens": {"demo": "\(Self.token)"}},
             "trust": {"iacaDirectory": "\(Self.demo.path)/trusted-iaca", "pollSeconds": 0}}
            """.utf8).write(to: config)
        let serve = try ServeProcess(config: config)
        let port = try serve.port()

        let before = try await Self.verify(port: port)
        #expect(before.status == 422 && before.body["code"] as? String == "RECIPIENT_KEY_UNKNOWN", "\(before)")
        #expect(!(try await Self.metrics(port: port)).contains("verifierd_apple_envelopes_opened_total{"))

        // The rotation: the demo key in the file, SIGHUP.
        let demoKey = Self.demo.appendingPathComponent("keys/merchant-encryption.pem")
        try FileManager.default.removeItem(at: key)
        try FileManager.default.copyItem(at: demoKey, to: key)
        kill(serve.process.processIdentifier, SIGHUP)
        #expect(try await Self.waitFor { try await Self.verify(port: port).status == 200 }, "the reloaded key opens the envelope")
        let expected = try Self.pkRHash(ofKeyAt: demoKey)
        #expect(expected.count == 64)
        let metrics = try await Self.metrics(port: port)
        #expect(metrics.contains("verifierd_apple_envelopes_opened_total{pkRHash=\"\(expected)\"}"), "\(metrics)")

        // A file that does not load keeps the keys in force.
        try Data("not a key\n".utf8).write(to: key)
        kill(serve.process.processIdentifier, SIGHUP)
        try await Task.sleep(for: .milliseconds(300))
        #expect(try await Self.verify(port: port).status == 200)

        let (_, rest) = serve.terminateAndReadRest()
        let lines = (serve.startLog + rest).split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        let accessLines = lines.filter { $0["message"] as? String == "request" && $0["route"] as? String == "/v1/apple/verify" }
        #expect(accessLines.first?["pkRHash"] == nil, "an envelope no key opened names no key")
        let opened = accessLines.filter { $0["outcome"] as? String == "verified" }
        #expect(!opened.isEmpty && opened.allSatisfy { $0["pkRHash"] as? String == expected }, "\(opened)")
        let reloaded = lines.first { $0["message"] as? String == "merchant encryption keys reloaded" }
        #expect(reloaded?["pkRHashes"] as? [String] == [expected], "\(String(describing: reloaded))")
        let refused = lines.first { $0["message"] as? String == "merchant encryption keys not reloaded; the keys in force stay" }
        #expect((refused?["reason"] as? String)?.contains("apple.encryptionKeys[0]") == true, "\(String(describing: refused))")
    }
}
