import Foundation
import Testing
import TestSupport

/// OpenID4VP `transaction_data` end to end: the independent Python wallet (`oid4vp_wallet.py` with
/// `transaction_data.py`: hashes from `hashlib`, KB-JWTs signed by `cryptography`, checked by joserfc and PyPI sd-jwt
/// in its self-test) against the running service, over the DC API and cross-device, through `/v1/oid4vp` and
/// `/v1/presentations`: every accepted binding, every refusal of the answer with its code, every refusal at creation,
/// and no `transaction_data` member in a request that has none.
@Suite(.serialized)
struct TransactionDataWalletTests {
    /// The types the wallet's scenarios use: TS12 payment (its JSON Schema on `payload`), the EUDI and CSC signing types.
    static func harness() throws -> ServiceHarness {
        try ServiceHarness(anchors: [ServiceHarness.pki.appendingPathComponent("iaca-p256.pem")], configure: { config in
            WebFlowTests.configure(mode: "readerAuth")(&config)
            config["oid4vp"] = [
                "allowedOrigins": WebFlowTests.origins, "sessionTTLSeconds": 300, "allowUnencryptedResponses": true,
                "publicBaseUrl": OpenID4VPWalletInteropTests.publicBaseURL,
                "transactionDataTypes": [
                    ["type": "urn:eudi:sca:payment:1", "schemaMember": "payload",
                     "schema": Fixtures.testVectors.appendingPathComponent("transaction-data/ts12-urn-eudi-sca-payment-1-data-model.json").path],
                    ["type": "qes_authorization"],
                    ["type": "https://cloudsignatureconsortium.org/2025/qes"],
                ],
            ]
            config["sdJwtVc"] = ["issuerDirectory": "sd-jwt-vc-issuers",
                                 "seedDirectory": SDJWTVCVectors.folder.appendingPathComponent("trusted-issuers").path]
        })
    }

    static let scenarios = [
        "txdata-payment", "txdata-payment-cross-device", "txdata-payment-sha384", "txdata-payment-sha384-cross-device",
        "txdata-payment-sha512", "txdata-payment-sha512-cross-device", "txdata-qes-authorization",
        "txdata-qes-authorization-cross-device", "txdata-csc-qes", "txdata-csc-qes-cross-device", "txdata-two-entries",
        "txdata-two-entries-cross-device", "txdata-two-credentials", "txdata-two-credentials-cross-device",
        "txdata-report-objects", "txdata-report-objects-cross-device", "txdata-payment-unsigned", "txdata-presentations",
        "txdata-hashes-missing", "txdata-hashes-missing-cross-device", "txdata-extra-hash", "txdata-extra-hash-cross-device",
        "txdata-reordered", "txdata-reordered-cross-device", "txdata-re-encoded-spaces", "txdata-re-encoded-spaces-cross-device",
        "txdata-re-encoded-reordered", "txdata-re-encoded-reordered-cross-device", "txdata-hash-of-decoded",
        "txdata-hash-of-decoded-cross-device", "txdata-sha384-not-offered", "txdata-sha384-not-offered-cross-device",
        "txdata-sha384-unnamed", "txdata-sha384-unnamed-cross-device", "txdata-alg-missing", "txdata-alg-missing-cross-device",
        "txdata-alg-array", "txdata-alg-array-cross-device", "txdata-duplicate-hash", "txdata-duplicate-hash-cross-device",
        "txdata-hashes-malformed", "txdata-hashes-malformed-cross-device", "txdata-approved-twice",
        "txdata-approved-twice-cross-device", "txdata-hashes-not-addressed", "txdata-hashes-not-addressed-cross-device",
        "txdata-hashes-without-request", "txdata-hashes-without-request-cross-device", "txdata-none-approves",
        "txdata-none-approves-cross-device", "txdata-not-approved", "txdata-not-approved-cross-device",
        "txdata-refused-invalid", "txdata-refused-type-not-allowed", "txdata-refused-schema-mismatch",
        "txdata-refused-not-bindable", "no-txdata-member",
    ]

    @Test func theWalletPassesEveryTransactionDataScenario() async throws {
        let harness = try Self.harness()
        defer { Task { await harness.stop() } }
        let run = try ProcessRunner.run([
            "python3", OpenID4VPWalletInteropTests.wallet.path, "--base-url", "http://127.0.0.1:\(harness.server.port)",
            "--reader-root", WebWalletInteropTests.readerRoot.path, "--token", ServiceHarness.integratorToken,
            "--public-base-url", OpenID4VPWalletInteropTests.publicBaseURL, "--scenarios", Self.scenarios.joined(separator: ","),
            "--now", "1893456000",
        ])
        var results: [String: [String: Any]] = [:]
        for line in run.output.split(separator: "\n") {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let name = object["scenario"] as? String else { continue }
            results[name] = object
        }
        #expect(run.status == 0, "wallet output:\n\(run.output)\n\(run.error)")
        for name in Self.scenarios {
            #expect(results[name]?["ok"] as? Bool == true, "\(name): \(results[name] ?? [:])")
        }
        await harness.stop()
    }

    /// The wallet's own check of its KB-JWTs with the independent libraries (PyPI sd-jwt, joserfc, jsonschema).
    @Test func theWalletsSelfTestPasses() throws {
        let run = try ProcessRunner.run(["python3", OpenID4VPWalletInteropTests.wallet.path, "--self-test"])
        #expect(run.status == 0, "\(run.output)\n\(run.error)")
    }
}
