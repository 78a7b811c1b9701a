import Crypto
import Foundation
import SessionStore
import Testing
import TestSupport
import TrustStore
import VerifierService

/// `/v1/web/requests` and `/v1/web/verify` over real sockets: sessions, origins, expiry, the stateless variant.
@Suite(.serialized)
struct WebFlowTests {
    static let demo = Fixtures.testVectors.appendingPathComponent("demo")
    static let origins = ["https://shop.example", "https://other.example", "https://example.com", "https://example.org"]

    static func configure(mode: String = "both", stateless: Bool = true, maxSessions: Int = 100_000)
        -> (inout [String: Any]) -> Void
    {
        { config in
            config["readerAuth"] = [
                "signingKey": demo.appendingPathComponent("keys/reader-auth.pem").path,
                "certificateChain": demo.appendingPathComponent("keys/reader-auth-chain.pem").path, "mode": mode,
            ]
            config["web"] = ["allowedOrigins": origins, "sessionTTLSeconds": 300, "allowStatelessVerify": stateless,
                             "maxSessions": maxSessions]
        }
    }

    static func harness(mode: String = "both", stateless: Bool = true, maxSessions: Int = 100_000,
                        clock: ManualClock? = nil, anchors: [URL]? = nil) throws -> ServiceHarness {
        try ServiceHarness(anchors: anchors ?? [ServiceHarness.pki.appendingPathComponent("iaca-p256.pem")], clock: clock,
                           configure: configure(mode: mode, stateless: stateless, maxSessions: maxSessions))
    }

    @Test func aRequestHasTheContractShape() async throws {
        let harness = try Self.harness()
        defer { Task { await harness.stop() } }
        let response = try await harness.post("/v1/web/requests", json: ["origin": "https://shop.example"])
        #expect(response.status == 201)
        let json = response.json
        let id = try #require(json["sessionId"] as? String)
        #expect(SessionIdentifier.isWellFormed(id))
        #expect(json["expiresAt"] as? String == "2030-01-01T00:05:00Z")
        let request = try #require(json["request"] as? [String: Any])
        #expect(request["protocol"] as? String == "org-iso-mdoc")
        let data = try #require(request["data"] as? [String: String])
        #expect(Set(data.keys) == ["deviceRequest", "encryptionInfo"])
        #expect(data.values.allSatisfy { !$0.contains("=") && !$0.contains("+") && !$0.contains("/") })
        #expect(data["encryptionInfo"]?.hasPrefix("gmVkY2Fwa") == true)
        // Nothing secret reaches the logs: not the session, not the request strings.
        let logs = harness.logs.all.joined()
        #expect(!logs.contains(id))
        #expect(!logs.contains(data["encryptionInfo"]!))
        await harness.stop()
    }

    @Test(arguments: ["https://evil.example", "https://shop.example/", "https://SHOP.example", "shop.example", ""])
    func anOriginNotAllowedIsRefused(origin: String) async throws {
        let harness = try Self.harness()
        defer { Task { await harness.stop() } }
        let response = try await harness.post("/v1/web/requests", json: ["origin": origin])
        #expect(response.status == 400)
        #expect(response.json["code"] as? String == "ORIGIN_NOT_ALLOWED")
        await harness.stop()
    }

    @Test func requestsOutsideTheLimitsAreRefused() async throws {
        let harness = try Self.harness()
        defer { Task { await harness.stop() } }
        let empty = try await harness.post("/v1/web/requests", json: ["origin": "https://shop.example", "documents": []])
        #expect(empty.status == 400)
        let noElements = try await harness.post("/v1/web/requests", json: [
            "origin": "https://shop.example", "documents": [["docType": "org.iso.18013.5.1.mDL", "elements": [:]]],
        ])
        #expect(noElements.status == 400)
        let many = Dictionary(uniqueKeysWithValues: (0..<300).map { ("e\($0)", false) })
        let tooMany = try await harness.post("/v1/web/requests", json: [
            "origin": "https://shop.example", "documents": [["docType": "x", "elements": ["ns": many]]],
        ])
        #expect(tooMany.status == 400)
        #expect(tooMany.json["code"] as? String == "INVALID_REQUEST")
        await harness.stop()
    }

    @Test func aMistypedFieldInsideADocumentIsRefusedByName() async throws {
        let harness = try Self.harness()
        defer { Task { await harness.stop() } }
        let elements = ["org.iso.18013.5.1": ["family_name": false]]
        let mistyped = try await harness.post("/v1/web/requests", json: [
            "origin": "https://shop.example",
            "documents": [["docType": "org.iso.18013.5.1.mDL", "elements": elements],
                          ["docType": "org.iso.18013.5.1.mDL", "elements": elements, "intentToRetain": true]],
        ])
        #expect(mistyped.status == 400)
        #expect(mistyped.json["code"] as? String == "INVALID_REQUEST")
        #expect(mistyped.json["detail"] as? String
                == #"unknown field "documents[1].intentToRetain" (known: docType, elements, zk)"#, "\(mistyped.text)")
        // At the top of a body that is not flat (read by Foundation's decoder), the same rule and the same message.
        let topLevel = try await harness.post("/v1/web/requests", json: [
            "origin": "https://shop.example", "documnets": [["docType": "org.iso.18013.5.1.mDL", "elements": elements]],
        ])
        #expect(topLevel.status == 400)
        #expect(topLevel.json["detail"] as? String == #"unknown field "documnets" (known: documents, origin)"#,
                "\(topLevel.text)")
        // The same document without the stray field is a request.
        let accepted = try await harness.post("/v1/web/requests", json: [
            "origin": "https://shop.example", "documents": [["docType": "org.iso.18013.5.1.mDL", "elements": elements]],
        ])
        #expect(accepted.status == 201, "\(accepted.text)")
        await harness.stop()
    }

    @Test func aDuplicateNameIsRefusedWhereverItIs() async throws {
        let harness = try Self.harness()
        defer { Task { await harness.stop() } }
        func post(_ text: String) async throws -> ServiceHarness.Response {
            try await harness.request("POST", "/v1/web/requests", body: Data(text.utf8), headers: ["Content-Type": "application/json"])
        }
        func refused(_ text: String, naming path: String) async throws {
            let response = try await post(text)
            #expect(response.status == 400, "\(text)")
            #expect(response.json["code"] as? String == "INVALID_REQUEST")
            #expect(response.json["detail"] as? String == #"duplicate field "\#(path)" (a name may appear only once in an object)"#,
                    "\(response.text)")
        }
        // Python, JavaScript and Go would read the evil origin: this must not be a request bound to the shop.
        try await refused(#"{"origin": "https://shop.example", "origin": "https://evil.example"}"#, naming: "origin")
        try await refused(#"{"origin": "https://shop.example", "\u006frigin": "https://evil.example"}"#, naming: "origin")
        let mdl = #"{"org.iso.18013.5.1": {"family_name": false}}"#
        try await refused(#"{"origin": "https://shop.example", "documents": [{"docType": "org.iso.18013.5.1.mDL", "docType": "x", "elements": \#(mdl)}]}"#,
                          naming: "documents[0].docType")
        try await refused(#"{"origin": "https://shop.example", "documents": [{"docType": "org.iso.18013.5.1.mDL", "elements": {"org.iso.18013.5.1": {"family_name": false, "family_name": true}}}]}"#,
                          naming: "documents[0].elements.org.iso.18013.5.1.family_name")
        // The same name in different objects is not a duplicate.
        let accepted = try await post(#"{"origin": "https://shop.example", "documents": [{"docType": "org.iso.18013.5.1.mDL", "elements": \#(mdl)}, {"docType": "org.iso.23220.photoid.1", "elements": \#(mdl)}]}"#)
        #expect(accepted.status == 201, "\(accepted.text)")
        await harness.stop()
    }

    @Test func sessionsExpireAndAreForgotten() async throws {
        let clock = ManualClock(TestClock.date("2030-01-01T00:00:00Z"))
        let harness = try Self.harness(clock: clock)
        defer { Task { await harness.stop() } }
        var ids: [String] = []
        for _ in 0..<20 {
            let created = try await harness.post("/v1/web/requests", json: ["origin": "https://shop.example"])
            ids.append(try #require(created.json["sessionId"] as? String))
        }
        #expect(await harness.service.sessionStore.statistics(now: clock.now).live == 20)
        clock.advance(by: 301)
        let expired = try await harness.post("/v1/web/verify", json: ["sessionId": ids[0], "response": "gmVkY2Fwaa"])
        #expect(expired.status == 410)
        #expect(expired.json["code"] as? String == "SESSION_EXPIRED")
        let again = try await harness.post("/v1/web/verify", json: ["sessionId": ids[0], "response": "gmVkY2Fwaa"])
        #expect(again.status == 410)
        // After the tombstone period everything is gone: memory is back to its baseline.
        clock.advance(by: 301)
        await harness.service.sessionStore.sweep(now: clock.now)
        #expect(await harness.service.sessionStore.statistics(now: clock.now) == SessionStoreStatistics(live: 0, tombstones: 0, maximum: 100_000, liveBytes: 0))
        let forgotten = try await harness.post("/v1/web/verify", json: ["sessionId": ids[1], "response": "gmVkY2Fwaa"])
        #expect(forgotten.status == 404)
        await harness.stop()
    }

    @Test func unknownAndMalformedSessionsAreNotFound() async throws {
        let harness = try Self.harness()
        defer { Task { await harness.stop() } }
        for id in [SessionIdentifier.make(), "x", String(repeating: "é", count: 43)] {
            let response = try await harness.post("/v1/web/verify", json: ["sessionId": id, "response": "gmVkY2Fwaa"])
            #expect(response.status == 404)
            #expect(response.json["code"] as? String == "SESSION_NOT_FOUND")
        }
        await harness.stop()
    }

    @Test func aMalformedAnswerBurnsTheSession() async throws {
        let harness = try Self.harness()
        defer { Task { await harness.stop() } }
        let created = try await harness.post("/v1/web/requests", json: ["origin": "https://shop.example"])
        let id = try #require(created.json["sessionId"] as? String)
        let first = try await harness.post("/v1/web/verify", json: ["sessionId": id, "response": "AAAA"])
        #expect(first.status == 400)
        #expect(first.json["code"] as? String == "ENVELOPE_MALFORMED")
        let second = try await harness.post("/v1/web/verify", json: ["sessionId": id, "response": "AAAA"])
        #expect(second.status == 409)
        #expect(second.json["code"] as? String == "SESSION_ALREADY_USED")
        await harness.stop()
    }

    @Test func aFullStoreAnswers503() async throws {
        // Two kinds (web sessions, multi-protocol presentations) share the 4: two each.
        let harness = try Self.harness(maxSessions: 4)
        defer { Task { await harness.stop() } }
        for _ in 0..<2 {
            #expect(try await harness.post("/v1/web/requests", json: ["origin": "https://shop.example"]).status == 201)
        }
        let full = try await harness.post("/v1/web/requests", json: ["origin": "https://shop.example"])
        #expect(full.status == 503)
        #expect(full.json["code"] as? String == "SESSION_STORE_FULL")
        #expect(full.headers["retry-after"] == "5")
        await harness.stop()
    }

    @Test func withoutAWebSectionTheRoutesSayNotConfigured() async throws {
        let harness = try ServiceHarness()
        defer { Task { await harness.stop() } }
        let response = try await harness.post("/v1/web/requests", json: ["origin": "https://shop.example"])
        #expect(response.status == 503)
        #expect(response.json["code"] as? String == "WEB_NOT_CONFIGURED")
        await harness.stop()
    }

    // MARK: The ISO reference vector through the stateless variant

    static let reference = Fixtures.sharedVectors.appendingPathComponent("annex-c/annexc-iso-reference")

    static func referenceBody(origin: String = "https://example.com", pem: Bool = false) throws -> [String: Any] {
        func text(_ name: String) throws -> String {
            try Fixtures.text(reference.appendingPathComponent(name)).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let scalar = try Fixtures.hexFile(reference.appendingPathComponent("recipient_private_key_d.hex"))
        let key = pem ? try P256.KeyAgreement.PrivateKey(rawRepresentation: scalar).pemRepresentation
            : Data(scalar).base64EncodedString()
        return ["encryptionInfo": try text("encryption_info.b64url"), "origin": origin, "recipientPrivateKey": key,
                "response": try text("encrypted_response.b64url"), "verificationTime": "2021-01-01T00:00:00Z"]
    }

    static func annexDHarness(stateless: Bool = true) throws -> ServiceHarness {
        try ServiceHarness.withAnnexDIACA { try harness(stateless: stateless, anchors: [$0]) }
    }

    @Test(.enabled(if: Fixtures.sharedVectorsAvailable, "needs ../shared/vectors"), arguments: [false, true])
    func theReferenceVectorVerifiesStatelessly(pem: Bool) async throws {
        let harness = try Self.annexDHarness()
        defer { Task { await harness.stop() } }
        let response = try await harness.post("/v1/web/verify", json: try Self.referenceBody(pem: pem))
        #expect(response.status == 200)
        let document = try #require((response.json["documents"] as? [[String: Any]])?.first)
        let claims = try #require(document["claims"] as? [String: [String: Any]])
        #expect(claims["org.iso.18013.5.1"]?["family_name"] as? String == "Doe")
        let checks = try #require(document["checks"] as? [[String: Any]])
        #expect(checks.first { $0["id"] as? String == "request.elements" }?["outcome"] as? String == "notApplicable")
        await harness.stop()
    }

    @Test(.enabled(if: Fixtures.sharedVectorsAvailable, "needs ../shared/vectors"))
    func theReferenceVectorFailsForAnotherOrigin() async throws {
        let harness = try Self.annexDHarness()
        defer { Task { await harness.stop() } }
        let wrong = try await harness.post("/v1/web/verify", json: try Self.referenceBody(origin: "https://example.org"))
        #expect(wrong.status == 422)
        #expect(wrong.json["code"] as? String == "DECRYPTION_FAILED")
        #expect(wrong.json["documents"] as? [Any] != nil)
        let slash = try await harness.post("/v1/web/verify", json: try Self.referenceBody(origin: "https://example.com/"))
        #expect(slash.status == 400)
        #expect(slash.json["code"] as? String == "ORIGIN_NOT_ALLOWED")
        var mismatched = try Self.referenceBody()
        mismatched["recipientPrivateKey"] = Data(P256.KeyAgreement.PrivateKey().rawRepresentation).base64EncodedString()
        let mismatch = try await harness.post("/v1/web/verify", json: mismatched)
        #expect(mismatch.status == 400)
        #expect(mismatch.json["code"] as? String == "RECIPIENT_KEY_MISMATCH")
        await harness.stop()
    }

    @Test(.enabled(if: Fixtures.sharedVectorsAvailable, "needs ../shared/vectors"))
    func theStatelessVariantIsOffByDefault() async throws {
        let harness = try Self.annexDHarness(stateless: false)
        defer { Task { await harness.stop() } }
        let response = try await harness.post("/v1/web/verify", json: try Self.referenceBody())
        #expect(response.status == 400)
        #expect(response.json["code"] as? String == "STATELESS_VERIFY_DISABLED")
        await harness.stop()
    }
}
