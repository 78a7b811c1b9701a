import Foundation
import MDoc
import Testing
import TestSupport
@testable import VerifierConfiguration
@testable import VerifierService

/// Every endpoint over real sockets.
@Suite(.serialized)
struct EndpointTests {
    static let p256 = ServiceHarness.pki.appendingPathComponent("iaca-p256.pem")

    @Test func appleVerifyGeneratedEnvelope() async throws {
        let harness = try ServiceHarness(anchors: [Self.p256])
        defer { Task { await harness.stop() } }
        let (body, _) = try ServiceHarness.appleCase("valid-merchant-1")
        let response = try await harness.post("/v1/apple/verify", json: body)
        #expect(response.status == 200)
        #expect(response.json["verified"] as? Bool == true)
        let document = try #require((response.json["documents"] as? [[String: Any]])?.first)
        let claims = try #require(document["claims"] as? [String: [String: Any]])
        #expect(claims["org.iso.18013.5.1"]?["family_name"] as? String == "Mustermann")
        #expect(claims["org.iso.18013.5.1"]?["age_in_years"] as? Int == 53)
        #expect(document["deviceAuthentication"] as? String == "signature")
        // Every check of an mdoc, in order (the zk.* checks are those of zero-knowledge documents).
        #expect((document["checks"] as? [[String: Any]])?.compactMap { $0["id"] as? String }
            == VerificationCheckID.allCases.map(\.rawValue).filter { !$0.hasPrefix("zk.") })
        #expect(response.headers["x-request-id"] != nil)
        // URL-safe alphabet without padding is accepted too.
        var urlSafe = body
        urlSafe["encryptedData"] = (body["encryptedData"] as! String).replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        #expect(try await harness.post("/v1/apple/verify", json: urlSafe).status == 200)
        await harness.stop()
    }

    @Test func appleVerifyFailuresAre422WithTheCode() async throws {
        let harness = try ServiceHarness(anchors: [Self.p256]) { config in
            var apple = config["apple"] as! [String: Any]
            apple["allowedMerchantIds"] = ["com.example.other"]
            config["apple"] = apple
        }
        defer { Task { await harness.stop() } }
        var (body, _) = try ServiceHarness.appleCase("valid-merchant-1")
        body["merchantId"] = "com.example.other"
        var response = try await harness.post("/v1/apple/verify", json: body)
        #expect(response.status == 422)
        #expect(response.json["code"] as? String == "INFO_HASH_MISMATCH")
        #expect((response.json["message"] as? String)?.contains("nonce, merchant ID or team ID") == true)

        for (name, code) in [("recipient-key-unknown", "RECIPIENT_KEY_UNKNOWN"), ("plaintext-not-cbor", "DEVICE_RESPONSE_MALFORMED"),
                             ("issuer-signature-invalid", "ISSUER_SIGNATURE_INVALID")] {
            response = try await harness.post("/v1/apple/verify", json: try ServiceHarness.appleCase(name).body)
            #expect(response.status == 422, "\(name)")
            #expect(response.json["code"] as? String == code, "\(name)")
        }
        // A document that failed has its checks but no claims.
        let document = (response.json["documents"] as? [[String: Any]])?.first
        #expect(document?["claims"] == nil)
        #expect(document?["checks"] != nil)
        await harness.stop()
    }

    /// A request may not choose the merchant or team it is verified for unless the configuration lists it.
    @Test func requestCannotOverrideMerchantOrTeamUnlessAllowed() async throws {
        let harness = try ServiceHarness(anchors: [Self.p256])
        defer { Task { await harness.stop() } }
        var (body, _) = try ServiceHarness.appleCase("valid-merchant-1")
        body["merchantId"] = "com.example.other"
        var response = try await harness.post("/v1/apple/verify", json: body)
        #expect(response.status == 400)
        #expect(response.json["code"] as? String == "MERCHANT_ID_NOT_ALLOWED")
        body["merchantId"] = nil
        body["teamId"] = "OTHERTEAM"
        response = try await harness.post("/v1/apple/verify", json: body)
        #expect(response.status == 400)
        #expect(response.json["code"] as? String == "TEAM_ID_NOT_ALLOWED")
        response = try await harness.post("/v1/apple/session-transcript", json: ["nonce": "AAAA", "teamId": "OTHERTEAM"])
        #expect(response.json["code"] as? String == "TEAM_ID_NOT_ALLOWED")
        // Naming the configured values explicitly is fine.
        body["merchantId"] = "com.example.verifierd.test"
        body["teamId"] = "VERIFIERD1"
        #expect(try await harness.post("/v1/apple/verify", json: body).status == 200)
        await harness.stop()
    }

    @Test func badRequestsAre400Problems() async throws {
        let harness = try ServiceHarness(anchors: [Self.p256])
        defer { Task { await harness.stop() } }
        let (valid, _) = try ServiceHarness.appleCase("valid-merchant-1")
        let cases: [(Data, String)] = [
            (Data("not json".utf8), "INVALID_REQUEST"),
            (try JSONSerialization.data(withJSONObject: ["nonce": "AAAA"]), "INVALID_REQUEST"),
            (try JSONSerialization.data(withJSONObject: ["encryptedData": 5, "nonce": "AAAA"]), "INVALID_REQUEST"),
            (try JSONSerialization.data(withJSONObject: ["encryptedData": "!!!", "nonce": "AAAA"]), "INVALID_BASE64"),
            (try JSONSerialization.data(withJSONObject: ["encryptedData": "oA==", "nonce": "AAAA"]), "ENVELOPE_MALFORMED"),
            (try JSONSerialization.data(withJSONObject: ["encryptedData": valid["encryptedData"]!, "nonce": ""]), "NONCE_INVALID"),
            (try JSONSerialization.data(withJSONObject: try ServiceHarness.appleCase("envelope-mode-1").body), "ENVELOPE_UNSUPPORTED"),
            (try JSONSerialization.data(withJSONObject: try ServiceHarness.appleCase("envelope-algorithm-v2").body), "ENVELOPE_UNSUPPORTED"),
        ]
        for (body, code) in cases {
            let response = try await harness.request("POST", "/v1/apple/verify", body: body)
            #expect(response.status == 400, "\(code)")
            #expect(response.headers["content-type"] == "application/problem+json", "\(code)")
            #expect(response.json["code"] as? String == code)
            #expect(response.json["status"] as? Int == 400)
            #expect(response.json["title"] != nil && response.json["type"] != nil && response.json["detail"] != nil)
        }
        await harness.stop()
    }

    @Test func profileModeCanBeSetPerAnchor() async throws {
        let noCountry = ServiceHarness.pki.appendingPathComponent("iaca-no-country.pem")
        let folder = Fixtures.testVectors.appendingPathComponent("mdoc/cases")
        let body: [String: Any] = [
            "deviceResponse": Data(try Fixtures.hexFile(folder.appendingPathComponent("profile-iaca-without-country-warn.deviceresponse.hex"))).base64EncodedString(),
            "sessionTranscript": Data(try Fixtures.hexFile(folder.appendingPathComponent("profile-iaca-without-country-warn.transcript.hex"))).base64EncodedString(),
            "verificationTime": "2030-01-01T00:00:00Z",
        ]
        // countryName is mandatory (ISO 18013-5 Annex B): the default mode fails the document.
        let strict = try ServiceHarness(anchors: [noCountry])
        defer { Task { await strict.stop() } }
        let response = try await strict.post("/v1/mdoc/verify", json: body)
        #expect(response.status == 422)
        #expect(response.json["code"] as? String == "CERTIFICATE_PROFILE_VIOLATION")
        // An operator can name one anchor lenient by its SHA-256; the others keep the default.
        let fingerprint = try #require(strict.service.iacaTrust.snapshot.anchors.first?.sha256)
        let relaxed = try ServiceHarness(anchors: [noCountry]) { config in
            config["trust"] = ["iacaDirectory": "trusted-iaca", "pollSeconds": 0, "profileChecksByAnchor": [fingerprint: "lenient"]]
        }
        defer { Task { await relaxed.stop() } }
        let relaxedResponse = try await relaxed.post("/v1/mdoc/verify", json: body)
        #expect(relaxedResponse.status == 200)
        let checks = (relaxedResponse.json["documents"] as? [[String: Any]])?.first?["checks"] as? [[String: Any]]
        #expect(checks?.first { $0["id"] as? String == "issuer.certificateProfile" }?["outcome"] as? String == "warning")
        await strict.stop()
        await relaxed.stop()
    }

    @Test func lenientIsOnlyAPerAnchorMode() throws {
        #expect(throws: ConfigurationError.self) {
            _ = try ServiceHarness { config in
                config["trust"] = ["iacaDirectory": "trusted-iaca", "pollSeconds": 0, "profileChecks": "lenient"]
            }
        }
    }

    @Test func verificationTimeOverrideNeedsTheSetting() async throws {
        let harness = try ServiceHarness(anchors: [Self.p256]) { config in
            config["verification"] = ["allowVerificationTimeOverride": false]
        }
        defer { Task { await harness.stop() } }
        var (body, _) = try ServiceHarness.appleCase("valid-merchant-1")
        body["verificationTime"] = "2030-01-01T00:00:00Z"
        let response = try await harness.post("/v1/apple/verify", json: body)
        #expect(response.status == 400)
        #expect(response.json["code"] as? String == "VERIFICATION_TIME_OVERRIDE_DISABLED")
        await harness.stop()
    }

    @Test func sessionTranscriptEndpoint() async throws {
        let harness = try ServiceHarness(anchors: [Self.p256])
        defer { Task { await harness.stop() } }
        let response = try await harness.post("/v1/apple/session-transcript", json: ["nonce": "AQID"])
        let transcripts = try #require(response.json["transcripts"] as? [[String: Any]])
        #expect(transcripts.count == 2)
        #expect((transcripts.first?["infoHash"] as? String)?.count == 64)
        let pinned = try await harness.post("/v1/apple/session-transcript",
                                            json: ["nonce": "AQID", "pkRHash": String(repeating: "ab", count: 32)])
        #expect((pinned.json["transcripts"] as? [[String: Any]])?.count == 1)
        #expect(try await harness.post("/v1/apple/session-transcript", json: ["nonce": "AQID", "pkRHash": "zz"]).status == 400)
        await harness.stop()
    }

    @Test func mdocVerifyGeneratedCases() async throws {
        let harness = try ServiceHarness(anchors: [Self.p256])
        defer { Task { await harness.stop() } }
        let folder = Fixtures.testVectors.appendingPathComponent("mdoc/cases")
        func body(_ name: String) throws -> [String: Any] {
            [
                "deviceResponse": Data(try Fixtures.hexFile(folder.appendingPathComponent("\(name).deviceresponse.hex"))).base64EncodedString(),
                "sessionTranscript": Data(try Fixtures.hexFile(folder.appendingPathComponent("\(name).transcript.hex"))).base64EncodedString(),
                "verificationTime": "2030-01-01T00:00:00Z",
            ]
        }
        #expect(try await harness.post("/v1/mdoc/verify", json: try body("valid-p256-sha256-signature")).status == 200)
        let digest = try await harness.post("/v1/mdoc/verify", json: try body("digest-mismatch"))
        #expect(digest.status == 422)
        #expect(digest.json["code"] as? String == "DIGEST_MISMATCH")
        let malformed = try await harness.post("/v1/mdoc/verify", json: ["deviceResponse": "AAAA", "sessionTranscript": "gA=="])
        #expect(malformed.status == 422)
        #expect(malformed.json["code"] as? String == "DEVICE_RESPONSE_MALFORMED")
        var badTranscript = try body("valid-p256-sha256-signature")
        badTranscript["sessionTranscript"] = "//8="
        #expect(try await harness.post("/v1/mdoc/verify", json: badTranscript).json["code"] as? String == "SESSION_TRANSCRIPT_MALFORMED")
        var badKey = try body("valid-device-mac")
        badKey["readerPrivateKey"] = "AAAA"
        #expect(try await harness.post("/v1/mdoc/verify", json: badKey).json["code"] as? String == "INVALID_READER_KEY")

        // The reader key as hex (plain, or with a prefix) or base64 (plain, or with a prefix): all the same key.
        let manifest = try JSONValue.load(Fixtures.testVectors.appendingPathComponent("mdoc/manifest.json"))
        let keyHex = try #require(manifest["cases"]?.array.first { $0["name"]?.string == "valid-device-mac" }?["readerPrivateKey"]?.string)
        let keyBase64 = Data(try #require([UInt8](hex: keyHex))).base64EncodedString()
        for text in [keyHex, keyHex.uppercased(), "hex:" + keyHex, keyBase64, "base64:" + keyBase64] {
            var mac = try body("valid-device-mac")
            mac["readerPrivateKey"] = text
            let answer = try await harness.post("/v1/mdoc/verify", json: mac)
            #expect(answer.status == 200 && answer.json["verified"] as? Bool == true, "\(text): \(answer.text)")
        }
        for (text, says) in [("hex:zz", "is not hex after"), ("base64:***", "is not base64 after"), ("AAAA", "is 3 bytes"),
                             (String(repeating: "0", count: 64), "not a valid private scalar of its curve")] {
            var mac = try body("valid-device-mac")
            mac["readerPrivateKey"] = text
            let answer = try await harness.post("/v1/mdoc/verify", json: mac)
            #expect(answer.status == 400 && answer.json["code"] as? String == "INVALID_READER_KEY")
            #expect((answer.json["detail"] as? String ?? answer.text).contains(says), "\(text): \(answer.text)")
        }

        // SessionTranscriptBytes (the transcript in tag 24) and arrays of another length are named, not left to
        // fail as a signature that does not verify.
        let transcript = try Fixtures.hexFile(folder.appendingPathComponent("valid-p256-sha256-signature.transcript.hex"))
        let length = transcript.count
        let header: [UInt8] = length < 24 ? [0x40 + UInt8(length)] : length < 256 ? [0x58, UInt8(length)]
            : [0x59, UInt8(length >> 8), UInt8(length & 0xff)]
        var wrapped = try body("valid-p256-sha256-signature")
        wrapped["sessionTranscript"] = Data([0xd8, 0x18] + header + transcript).base64EncodedString()
        let tag24 = try await harness.post("/v1/mdoc/verify", json: wrapped)
        #expect(tag24.json["code"] as? String == "SESSION_TRANSCRIPT_MALFORMED")
        #expect(tag24.text.contains("tag 24"), "\(tag24.text)")
        var pair = try body("valid-p256-sha256-signature")
        pair["sessionTranscript"] = Data([0x82, 0xf6, 0xf6]).base64EncodedString()
        let two = try await harness.post("/v1/mdoc/verify", json: pair)
        #expect(two.json["code"] as? String == "SESSION_TRANSCRIPT_MALFORMED")
        #expect(two.text.contains("has 2 elements"), "\(two.text)")
        await harness.stop()
    }

    @Test func healthReadinessMetricsAndOpenAPI() async throws {
        let harness = try ServiceHarness(anchors: [Self.p256])
        defer { Task { await harness.stop() } }
        #expect(try await harness.request("GET", "/healthz").status == 200)
        #expect(try await harness.request("GET", "/readyz").status == 200)
        _ = try await harness.post("/v1/apple/verify", json: try ServiceHarness.appleCase("valid-merchant-1").body)
        let metrics = try await harness.request("GET", "/metrics").text
        #expect(metrics.contains("verifierd_verifications_total{endpoint=\"apple\",outcome=\"verified\"} 1"))
        #expect(metrics.contains("verifierd_trust_anchors 1"))
        #expect(metrics.contains("verifierd_trust_anchor_soonest_expiry_seconds"))
        #expect(metrics.contains("verifierd_http_requests_total"))
        let openapi = try await harness.request("GET", "/openapi.json")
        let paths = try #require(openapi.json["paths"] as? [String: [String: Any]])
        for route in harness.service.router().routes {
            let path = route.pattern.split(separator: "/").map { $0.hasPrefix(":") ? "{\($0.dropFirst())}" : String($0) }
                .joined(separator: "/")
            #expect(paths["/" + path]?[route.method.rawValue.lowercased()] != nil, "\(route) is not in the OpenAPI document")
        }
        #expect(try await harness.request("GET", "/nope").status == 404)
        let wrongMethod = try await harness.request("DELETE", "/healthz")
        #expect(wrongMethod.status == 405)
        await harness.stop()
    }

    @Test func notReadyWithoutAnchors() async throws {
        let harness = try ServiceHarness()
        defer { Task { await harness.stop() } }
        let response = try await harness.request("GET", "/readyz")
        #expect(response.status == 503)
        #expect(response.json["code"] as? String == "NOT_READY")
        await harness.stop()
    }

    @Test func readerTokens() async throws {
        let harness = try ServiceHarness(anchors: [Self.p256])
        defer { Task { await harness.stop() } }
        let auth = ["Authorization": "Bearer \(ServiceHarness.clientToken)"]
        let minted = try await harness.post("/v1/reader-tokens", json: ["readerInstanceIdentifier": "reader-1"], headers: auth)
        #expect(minted.status == 201)
        #expect((minted.json["token"] as? String)?.split(separator: ".").count == 3)
        #expect(minted.json["issuedAt"] as? String == "2030-01-01T00:00:00Z")
        #expect(minted.json["expiresAt"] as? String == "2030-01-01T00:05:00Z")
        #expect(try await harness.post("/v1/reader-tokens", json: ["readerInstanceIdentifier": "r"]).status == 401)
        #expect(try await harness.post("/v1/reader-tokens", json: ["readerInstanceIdentifier": "r"],
                                       headers: ["Authorization": "Bearer wrong"]).status == 401)
        for bad: Any in ["", String(repeating: "x", count: 257), "caf\u{e9}"] {
            let response = try await harness.post("/v1/reader-tokens", json: ["readerInstanceIdentifier": bad], headers: auth)
            #expect(response.status == 400)
            #expect(response.json["code"] as? String == "INVALID_READER_INSTANCE_IDENTIFIER")
        }
        // A body that is not the request at all is INVALID_REQUEST, as on every endpoint: not JSON, a wrong type,
        // an unknown (mistyped) field.
        for body in ["not json", #"{"readerInstanceIdentifier": 5}"#, #"{"readerInstanceIdentifer": "r"}"#,
                     #"{"readerInstanceIdentifier": "r", "extra": true}"#] {
            let response = try await harness.request("POST", "/v1/reader-tokens", body: Data(body.utf8),
                                                     headers: auth.merging(["Content-Type": "application/json"]) { $1 })
            #expect(response.status == 400, "\(body)")
            #expect(response.json["code"] as? String == "INVALID_REQUEST", "\(body)")
        }
        let mistyped = try await harness.post("/v1/apple/verify", json: ["encryptedData": "AAAA", "nonce": "AAAA", "merchantID": "x"])
        #expect(mistyped.status == 400 && (mistyped.json["detail"] as? String ?? "").contains("merchantID"), "\(mistyped.json)")
        let metrics = try await harness.request("GET", "/metrics").text
        #expect(metrics.contains("verifierd_reader_tokens_total{outcome=\"minted\"} 1"))

        let disabled = try ServiceHarness(anchors: [Self.p256]) { $0["readerTokens"] = nil }
        defer { Task { await disabled.stop() } }
        let response = try await disabled.post("/v1/reader-tokens", json: ["readerInstanceIdentifier": "r"], headers: auth)
        #expect(response.status == 503)
        #expect(response.json["code"] as? String == "READER_TOKENS_DISABLED")
        await disabled.stop()
        await harness.stop()
    }
}
