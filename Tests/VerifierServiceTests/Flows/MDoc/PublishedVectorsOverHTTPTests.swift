import Foundation
import Testing
import TestSupport
@testable import VerifierService

/// Apple's sample and ISO Annex D through the HTTP API, and what the logs of such a run may not contain.
@Suite(.serialized, .enabled(if: Fixtures.sharedVectorsAvailable, "needs ../shared/vectors"))
struct PublishedVectorsOverHTTPTests {
    /// SHA-256 of the DER of Apple's sample root (`issuer_root.pem`).
    static let appleSampleRootSHA256 = "81ec73ca680daf9c22c80ade687ab9688bfec0d65471f6105e8c917d987fca52"

    /// Apple's merchant and team IDs and key, and its root (which has no countryName, mandatory in ISO 18013-5
    /// Annex B, so it is named lenient by SHA-256). The root itself goes in as an anchor.
    static func configureForAppleSample(_ config: inout [String: Any]) {
        let sample = Fixtures.sharedVectors.appendingPathComponent("apple-identity-sample")
        config["trust"] = ["iacaDirectory": "trusted-iaca", "pollSeconds": 0,
                           "profileChecksByAnchor": [appleSampleRootSHA256: "lenient"]]
        config["apple"] = [
            "merchantId": "PassKit_Identity_Test_Merchant_ID", "teamId": "PassKit_Identity_Test_Team_ID",
            "encryptionKeys": [sample.appendingPathComponent("merchant_encryption.key").path],
        ]
    }

    @Test func appleSampleVerifiesAndLogsNothingPersonal() async throws {
        let sample = Fixtures.sharedVectors.appendingPathComponent("apple-identity-sample")
        let harness = try ServiceHarness(anchors: [sample.appendingPathComponent("issuer_root.pem")],
                                         configure: Self.configureForAppleSample)
        defer { Task { await harness.stop() } }
        let nonce = try Fixtures.hexFile(sample.appendingPathComponent("nonce.hex"))
        let envelope = try Fixtures.bytes(sample.appendingPathComponent("hpke_envelope.cbor"))
        let response = try await harness.post("/v1/apple/verify", json: [
            "encryptedData": Data(envelope).base64EncodedString(), "nonce": Data(nonce).base64EncodedString(),
            "verificationTime": "2022-06-01T00:00:00Z",
        ], headers: ["X-Request-Id": "sample-run-1"])
        #expect(response.status == 200)
        let document = try #require((response.json["documents"] as? [[String: Any]])?.first)
        let claims = try #require(document["claims"] as? [String: [String: Any]])
        #expect(claims["org.iso.18013.5.1"]?["given_name"] as? String == "Jane")
        #expect(claims["org.iso.18013.5.1"]?["family_name"] as? String == "Doe")
        #expect(claims["org.iso.18013.5.1"]?["age_in_years"] as? Int == 42)
        let profile = (document["checks"] as? [[String: Any]])?.first { $0["id"] as? String == "issuer.certificateProfile" }
        #expect(profile?["outcome"] as? String == "warning")
        #expect(response.headers["x-request-id"] == "sample-run-1")

        // A failing run too, so failure paths are in the logs.
        var wrong = nonce
        wrong[0] ^= 1
        _ = try await harness.post("/v1/apple/verify", json: [
            "encryptedData": Data(envelope).base64EncodedString(), "nonce": Data(wrong).base64EncodedString(),
            "verificationTime": "2022-06-01T00:00:00Z",
        ])
        _ = try await harness.admin("GET", "/v1/admin/iaca")
        try await Task.sleep(for: .milliseconds(100))
        let logs = harness.logs.all.joined(separator: "\n")
        let sampleLine = try #require(harness.logs.all.first { $0.contains("sample-run-1") })
        #expect(sampleLine.contains("\"route\":\"/v1/apple/verify\""))
        #expect(sampleLine.contains("\"status\":200"))
        #expect(sampleLine.contains("\"outcome\":\"verified\""))
        #expect(sampleLine.contains("\"durationMs\""))
        #expect(logs.contains("\"outcome\":\"INFO_HASH_MISMATCH\""))
        for secret in ["Jane", "Doe", nonce.hexString, Data(nonce).base64EncodedString(), wrong.hexString,
                       ServiceHarness.adminToken, String(Data(envelope).base64EncodedString().prefix(40))] {
            #expect(!logs.contains(secret), "a log line contains \(secret.prefix(12))…")
        }
        await harness.stop()
    }

    @Test func annexDThroughTheGenericEndpoint() async throws {
        let iaca = try Fixtures.annexD("iaca_cert")
        let harness = try ServiceHarness()
        defer { Task { await harness.stop() } }
        #expect(try await harness.admin("POST", "/v1/admin/iaca?allowExpired=true", body: Data(iaca)).status == 201)
        let body: [String: Any] = [
            "deviceResponse": Data(try Fixtures.annexD("device_response")).base64EncodedString(),
            "sessionTranscript": Data(try Fixtures.annexD("session_transcript")).base64EncodedString(),
            "readerPrivateKey": Data(try Fixtures.annexD("e_reader_key_d")).base64EncodedString(),
            "verificationTime": "2021-01-01T00:00:00Z",
        ]
        let response = try await harness.post("/v1/mdoc/verify", json: body)
        #expect(response.status == 200)
        let document = try #require((response.json["documents"] as? [[String: Any]])?.first)
        #expect(document["deviceAuthentication"] as? String == "mac")
        let claims = try #require(document["claims"] as? [String: [String: Any]])
        #expect(claims["org.iso.18013.5.1"]?["family_name"] as? String == "Doe")
        #expect(claims["org.iso.18013.5.1"]?["issue_date"] as? String == "2019-10-20")
        #expect((claims["org.iso.18013.5.1"]?["portrait"] as? String).flatMap { Data(base64Encoded: $0) }?.count == 1042)

        var noKey = body
        noKey["readerPrivateKey"] = nil
        let missing = try await harness.post("/v1/mdoc/verify", json: noKey)
        #expect(missing.status == 422)
        #expect(missing.json["code"] as? String == "READER_KEY_REQUIRED")
        var late = body
        late["verificationTime"] = "2022-01-01T00:00:00Z"
        #expect(try await harness.post("/v1/mdoc/verify", json: late).json["code"] as? String == "ISSUER_CERTIFICATE_EXPIRED")
        await harness.stop()
    }
}
