import Foundation
import Testing
import TestSupport

/// The independent Python OpenID4VP wallet (`TestVectors/generator/oid4vp_wallet.py`: cbor2, cryptography, joserfc)
/// against the running service: signed and unsigned requests, dc_api and dc_api.jwt, A128GCM and A256GCM, the
/// cross-device flow, and every refusal. The wallet checks what the service sends by itself (request-object
/// signature and x5c chain, x509_hash, DCQL, the encryption JWK) and each outcome.
@Suite(.serialized)
struct OpenID4VPWalletInteropTests {
    static let wallet = Fixtures.testVectors.appendingPathComponent("generator/oid4vp_wallet.py")
    static let publicBaseURL = "https://verifier.example"

    static func harness() throws -> ServiceHarness {
        try ServiceHarness(anchors: [ServiceHarness.pki.appendingPathComponent("iaca-p256.pem")], configure: { config in
            WebFlowTests.configure(mode: "readerAuth")(&config)
            config["oid4vp"] = ["allowedOrigins": WebFlowTests.origins, "sessionTTLSeconds": 300,
                                "allowUnencryptedResponses": true, "publicBaseUrl": publicBaseURL]
        })
    }

    static let everyScenario = [
        "request-shape", "verified-signed-jwt-a128gcm", "verified-signed-jwt-a256gcm", "verified-signed-plain",
        "verified-unsigned-jwt-a128gcm", "verified-unsigned-jwt-a256gcm", "verified-unsigned-plain", "cross-device",
        "replay", "wallet-error", "other-session-key", "wrong-kid", "epk-off-curve", "alg-none", "alg-dir", "alg-rsa-oaep",
        "other-origin", "other-nonce", "wrong-handover-name", "thumbprint-null", "unknown-credential-id",
        "two-presentations", "cross-device-request-once", "cross-device-posted-twice", "cross-device-result",
    ]

    @Test func theWalletPassesEveryScenario() async throws {
        let harness = try Self.harness()
        defer { Task { await harness.stop() } }
        let run = try ProcessRunner.run([
            "python3", Self.wallet.path, "--base-url", "http://127.0.0.1:\(harness.server.port)",
            "--reader-root", WebWalletInteropTests.readerRoot.path, "--token", ServiceHarness.integratorToken,
            "--public-base-url", Self.publicBaseURL, "--scenarios", Self.everyScenario.joined(separator: ","),
        ])
        var results: [String: [String: Any]] = [:]
        for line in run.output.split(separator: "\n") {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let name = object["scenario"] as? String else { continue }
            results[name] = object
        }
        #expect(run.status == 0, "wallet output:\n\(run.output)\n\(run.error)")
        for name in Self.everyScenario {
            #expect(results[name]?["ok"] as? Bool == true, "\(name): \(results[name] ?? [:])")
        }
        await harness.stop()
    }
}
