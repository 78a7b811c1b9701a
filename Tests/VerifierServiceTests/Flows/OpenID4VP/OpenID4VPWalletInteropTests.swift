import Foundation
import Testing
import TestSupport

/// The independent Python OpenID4VP wallet (`TestVectors/generator/oid4vp_wallet.py`: cbor2, cryptography, joserfc)
/// against the running service: signed and unsigned requests, dc_api and dc_api.jwt, A128GCM and A256GCM, the
/// cross-device flow, and every refusal. The wallet checks what the service sends by itself (request-object
/// signature and x5c chain, x509_hash, DCQL, the encryption JWK) and each outcome. The same for SD-JWT VCs
/// (`dc+sd-jwt`): the wallet issues one under the TEST-ONLY issuer of TestVectors/sdjwt and binds it with a KB-JWT.
@Suite(.serialized)
struct OpenID4VPWalletInteropTests {
    static let wallet = Fixtures.testVectors.appendingPathComponent("generator/oid4vp_wallet.py")
    static let publicBaseURL = "https://verifier.example"

    static func harness() throws -> ServiceHarness {
        try ServiceHarness(anchors: [ServiceHarness.pki.appendingPathComponent("iaca-p256.pem")], configure: { config in
            WebFlowTests.configure(mode: "readerAuth")(&config)
            config["oid4vp"] = ["allowedOrigins": WebFlowTests.origins, "sessionTTLSeconds": 300,
                                "allowUnencryptedResponses": true, "publicBaseUrl": publicBaseURL]
            // The SD-JWT VC scenarios' issuer: the TEST-ONLY issuer CA of TestVectors/sdjwt.
            config["sdJwtVc"] = ["issuerDirectory": "sd-jwt-vc-issuers",
                                 "seedDirectory": SDJWTVCVectors.folder.appendingPathComponent("trusted-issuers").path]
        })
    }

    static let everyScenario = [
        "request-shape", "verified-signed-jwt-a128gcm", "verified-signed-jwt-a256gcm", "verified-signed-plain",
        "verified-unsigned-jwt-a128gcm", "verified-unsigned-jwt-a256gcm", "verified-unsigned-plain", "cross-device",
        "replay", "wallet-error", "other-session-key", "wrong-kid", "epk-off-curve", "alg-none", "alg-dir", "alg-rsa-oaep",
        "other-origin", "other-nonce", "wrong-handover-name", "thumbprint-null", "unknown-credential-id",
        "two-presentations", "cross-device-request-fetched-again", "cross-device-posted-twice", "cross-device-result",
        // SD-JWT VC (dc+sd-jwt) in every mode, with an mdoc in one request, and its refusals.
        "sdjwt-signed-jwt-a128gcm", "sdjwt-unsigned-jwt-a256gcm", "sdjwt-signed-plain", "sdjwt-cross-device", "sdjwt-and-mdoc",
        "sdjwt-unrequested-claim", "sdjwt-wrong-audience", "sdjwt-wrong-nonce", "sdjwt-no-kb", "sdjwt-tampered-disclosure",
        "sdjwt-untrusted-issuer", "sdjwt-vct-not-requested", "sdjwt-cross-device-dc-api-audience",
        // DCQL trusted_authorities (aki) sent unchanged and held to the answer, for both formats.
        "trusted-authorities",
    ]

    @Test func theWalletPassesEveryScenario() async throws {
        let harness = try Self.harness()
        defer { Task { await harness.stop() } }
        let run = try ProcessRunner.run([
            "python3", Self.wallet.path, "--base-url", "http://127.0.0.1:\(harness.server.port)",
            "--reader-root", WebWalletInteropTests.readerRoot.path, "--token", ServiceHarness.integratorToken,
            "--public-base-url", Self.publicBaseURL, "--scenarios", Self.everyScenario.joined(separator: ","),
            // The service's clock (ServiceHarness): the SD-JWT VCs' iat and exp and the KB-JWTs' iat.
            "--now", "1893456000",
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
