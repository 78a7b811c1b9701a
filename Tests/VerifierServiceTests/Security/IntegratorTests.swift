import Foundation
import Testing
import TestSupport

/// Integrator authentication on the create and verify routes, session ownership, and each kind's and each
/// integrator's share of the session capacity (issue 30: 40 nonce requests used to fill a 40-session store).
@Suite(.serialized)
struct IntegratorTests {
    static let demo = Fixtures.testVectors.appendingPathComponent("demo")
    static let shopToken = "shop-integrator-token-0123456789"
    static let kioskToken = "kiosk-integrator-token-012345678"

    /// Apple (with issued nonces), web and proximity on one store of `maxSessions`, for two integrators.
    static func harness(maxSessions: Int = 40, requireIssuedNonce: Bool = true,
                        integrators: [String: Any]? = nil) throws -> ServiceHarness {
        try ServiceHarness(anchors: [ServiceHarness.pki.appendingPathComponent("iaca-p256.pem")]) { config in
            config["apple"] = ["merchantId": "com.example.verifierd.demo", "teamId": "DEMOTEAM01",
                               "encryptionKeys": [demo.appendingPathComponent("keys/merchant-encryption.pem").path],
                               "requireIssuedNonce": requireIssuedNonce]
            WebFlowTests.configure(maxSessions: maxSessions)(&config)
            config["proximity"] = ["sessionTTLSeconds": 300]
            config["integrators"] = integrators ?? ["tokens": ["shop": shopToken, "kiosk": kioskToken]]
        }
    }

    static func bearer(_ token: String) -> [String: String] {
        ["Authorization": "Bearer \(token)", "Content-Type": "application/json"]
    }

    static let flowRoutes = ["/v1/apple/verify", "/v1/apple/session-transcript", "/v1/apple/nonces", "/v1/web/requests",
                             "/v1/web/verify", "/v1/proximity/sessions", "/v1/proximity/sessions/x/messages",
                             "/v1/mdoc/verify"]

    @Test func everyCreateAndVerifyRouteNeedsAKnownToken() async throws {
        let harness = try Self.harness()
        defer { Task { await harness.stop() } }
        for route in Self.flowRoutes {
            let none = try await harness.request("POST", route, body: Data("{}".utf8), anonymous: true)
            #expect(none.status == 401 && none.json["code"] as? String == "UNAUTHORIZED", "\(route): \(none.text)")
            #expect(none.headers["www-authenticate"] == "Bearer", "\(route)")
            let wrong = try await harness.request("POST", route, body: Data("{}".utf8),
                                                  headers: Self.bearer(String(Self.shopToken.dropLast()) + "X"))
            #expect(wrong.status == 401, "\(route): \(wrong.text)")
            let admin = try await harness.request("POST", route, body: Data("{}".utf8),
                                                  headers: Self.bearer(ServiceHarness.adminToken))
            #expect(admin.status == 401, "the admin token is not an integrator's: \(route)")
            let known = try await harness.request("POST", route, body: Data("{}".utf8), headers: Self.bearer(Self.kioskToken))
            #expect(known.status != 401, "\(route): \(known.text)")
        }
        // The routes outside the flows are unchanged: probes stay open, admin keeps its own token.
        #expect(try await harness.request("GET", "/healthz", anonymous: true).status == 200)
        #expect(try await harness.request("GET", "/v1/admin/iaca", headers: Self.bearer(Self.shopToken)).status == 401)
        await harness.stop()
    }

    @Test func theIntegratorsNameIsLoggedAndCountedButNeverItsToken() async throws {
        let harness = try Self.harness()
        defer { Task { await harness.stop() } }
        #expect(try await harness.request("POST", "/v1/web/requests", body: Data(#"{"origin": "https://shop.example"}"#.utf8),
                                          headers: Self.bearer(Self.shopToken)).status == 201)
        #expect(try await harness.request("POST", "/v1/web/requests", body: Data("{}".utf8),
                                          headers: Self.bearer("not-a-token-but-long-enough")).status == 401)
        let lines = harness.logs.all.filter { $0.contains("\"route\":\"/v1/web/requests\"") }
        #expect(lines.count == 2)
        #expect(lines.contains { $0.contains("\"integrator\":\"shop\"") && $0.contains("\"status\":201") })
        #expect(lines.contains { $0.contains("\"integrator\":\"-\"") && $0.contains("\"status\":401") })
        let logs = harness.logs.all.joined()
        #expect(!logs.contains(Self.shopToken) && !logs.contains("not-a-token-but-long-enough"))
        let metrics = try await harness.request("GET", "/metrics").text
        #expect(metrics.contains(#"verifierd_integrator_requests_total{integrator="shop",status="2xx"} 1"#), "\(metrics)")
        #expect(metrics.contains(#"verifierd_integrator_requests_total{integrator="-",status="4xx"} 1"#))
        await harness.stop()
    }

    @Test func aSessionIsUsedOnlyByTheIntegratorThatCreatedIt() async throws {
        let harness = try Self.harness()
        defer { Task { await harness.stop() } }
        let made = try await harness.request("POST", "/v1/web/requests", body: Data(#"{"origin": "https://shop.example"}"#.utf8),
                                             headers: Self.bearer(Self.shopToken))
        let id = try #require(made.json["sessionId"] as? String)
        let body = Data(#"{"sessionId": "\#(id)", "response": "AAAA"}"#.utf8)
        let stranger = try await harness.request("POST", "/v1/web/verify", body: body, headers: Self.bearer(Self.kioskToken))
        #expect(stranger.status == 404 && stranger.json["code"] as? String == "SESSION_NOT_FOUND", "\(stranger.text)")
        // The stranger's attempt did not use the session up: its owner still reaches it (and burns it).
        let owner = try await harness.request("POST", "/v1/web/verify", body: body, headers: Self.bearer(Self.shopToken))
        #expect(owner.status != 404 && owner.status != 409, "\(owner.text)")
        let again = try await harness.request("POST", "/v1/web/verify", body: body, headers: Self.bearer(Self.shopToken))
        #expect(again.status == 409 && again.json["code"] as? String == "SESSION_ALREADY_USED")
        // After use, the stranger still learns nothing about it.
        let later = try await harness.request("POST", "/v1/web/verify", body: body, headers: Self.bearer(Self.kioskToken))
        #expect(later.status == 404)
        await harness.stop()
    }

    /// 40 sessions for 4 kinds (web, multi-protocol presentations, proximity, nonces) are 10 per kind, 5 per
    /// integrator and kind: the nonce flood of the review stops at its share, and neither the other integrator nor
    /// the other kinds notice.
    @Test func oneIntegratorCannotStarveAnotherOrOneKindTheOthers() async throws {
        let harness = try Self.harness(maxSessions: 40)
        defer { Task { await harness.stop() } }
        var statuses: [Int] = []
        var refusal: ServiceHarness.Response?
        for _ in 0..<40 {
            let reply = try await harness.request("POST", "/v1/apple/nonces", body: Data("{}".utf8), headers: Self.bearer(Self.shopToken))
            statuses.append(reply.status)
            if reply.status != 201 && refusal == nil { refusal = reply }
        }
        #expect(statuses.filter { $0 == 201 }.count == 5, "\(statuses)")
        #expect(statuses.filter { $0 == 429 }.count == 35)
        let refused = try #require(refusal)
        #expect(refused.json["code"] as? String == "INTEGRATOR_QUOTA_EXCEEDED")
        #expect(refused.headers["retry-after"] == "5")
        // The other integrator still gets nonces; both still get web sessions.
        let other = try await harness.request("POST", "/v1/apple/nonces", body: Data("{}".utf8), headers: Self.bearer(Self.kioskToken))
        #expect(other.status == 201)
        for token in [Self.shopToken, Self.kioskToken] {
            let web = try await harness.request("POST", "/v1/web/requests", body: Data(#"{"origin": "https://shop.example"}"#.utf8),
                                                headers: Self.bearer(token))
            #expect(web.status == 201, "\(web.text)")
        }
        await harness.stop()
    }

    @Test func aKindFullForEveryoneIs503AndAPerIntegratorLimitCanBeSet() async throws {
        // One integrator may hold up to the kind's whole part (10 of 40); the kind is then full for the other too.
        let harness = try Self.harness(maxSessions: 40, integrators: [
            "tokens": ["shop": Self.shopToken, "kiosk": Self.kioskToken], "maxSessionsPerIntegrator": 100,
        ])
        defer { Task { await harness.stop() } }
        var created = 0
        for _ in 0..<10 {
            let reply = try await harness.request("POST", "/v1/apple/nonces", body: Data("{}".utf8), headers: Self.bearer(Self.shopToken))
            if reply.status == 201 { created += 1 }
        }
        #expect(created == 10)
        let full = try await harness.request("POST", "/v1/apple/nonces", body: Data("{}".utf8), headers: Self.bearer(Self.kioskToken))
        #expect(full.status == 503 && full.json["code"] as? String == "SESSION_STORE_FULL", "\(full.text)")
        #expect(full.headers["retry-after"] != nil)
        await harness.stop()
    }

    @Test func theNonceRouteAnswersOnlyWhenIssuedNoncesAreRequired() async throws {
        let harness = try Self.harness(requireIssuedNonce: false)
        defer { Task { await harness.stop() } }
        let reply = try await harness.request("POST", "/v1/apple/nonces", body: Data("{}".utf8), headers: Self.bearer(Self.shopToken))
        #expect(reply.status == 404 && reply.json["code"] as? String == "APPLE_NONCES_DISABLED", "\(reply.text)")
        await harness.stop()
    }

    @Test func withoutRequiredTokensAnAnonymousCallerIsOneIntegrator() async throws {
        let harness = try Self.harness(integrators: ["tokens": ["shop": Self.shopToken], "requireToken": false])
        defer { Task { await harness.stop() } }
        let anonymous = try await harness.request("POST", "/v1/web/requests", body: Data(#"{"origin": "https://shop.example"}"#.utf8),
                                                  headers: ["Content-Type": "application/json"], anonymous: true)
        #expect(anonymous.status == 201, "\(anonymous.text)")
        #expect(harness.logs.all.contains { $0.contains("\"integrator\":\"anonymous\"") })
        // A token that is presented must still be a known one.
        let wrong = try await harness.request("POST", "/v1/web/requests", body: Data(#"{"origin": "https://shop.example"}"#.utf8),
                                              headers: Self.bearer("unknown-token-0123456789"))
        #expect(wrong.status == 401)
        // The anonymous caller's session is not the named integrator's.
        let id = try #require(anonymous.json["sessionId"] as? String)
        let taken = try await harness.request("POST", "/v1/web/verify", body: Data(#"{"sessionId": "\#(id)", "response": "AAAA"}"#.utf8),
                                              headers: Self.bearer(Self.shopToken))
        #expect(taken.status == 404)
        await harness.stop()
    }

    @Test func withoutAnyConfiguredTokenTheRoutesSayWhatIsMissing() async throws {
        let harness = try Self.harness(integrators: [:])
        defer { Task { await harness.stop() } }
        let reply = try await harness.request("POST", "/v1/mdoc/verify", body: Data("{}".utf8), anonymous: true)
        #expect(reply.status == 401 && (reply.json["detail"] as? String)?.contains("integrators.tokens") == true, "\(reply.text)")
        await harness.stop()
    }
}
