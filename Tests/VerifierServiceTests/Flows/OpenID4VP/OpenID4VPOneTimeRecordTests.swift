import Foundation
import Testing
import TestSupport

/// The OpenID4VP routes that take one-time records, under attack: `HEAD` never takes a record, a wallet's answer is
/// never lost to its integrator's quota (the result's room is reserved with the session), the caller's poll always
/// ends, a redirect URI is an absolute https URL on an allowed origin, and what a session keeps is bounded in count
/// and in bytes.
@Suite(.serialized)
struct OpenID4VPOneTimeRecordTests {
    static let form = ["Content-Type": "application/x-www-form-urlencoded"]

    static func harness(clock: ManualClock? = nil, perIntegrator: Int? = nil) throws -> ServiceHarness {
        try ServiceHarness(anchors: [ServiceHarness.pki.appendingPathComponent("iaca-p256.pem")], clock: clock, configure: { config in
            WebFlowTests.configure(mode: "readerAuth")(&config)
            config["oid4vp"] = ["allowedOrigins": WebFlowTests.origins, "publicBaseUrl": "https://verifier.example"]
            if let perIntegrator {
                config["integrators"] = ["tokens": [ServiceHarness.integratorName: ServiceHarness.integratorToken],
                                         "maxSessionsPerIntegrator": perIntegrator]
            }
        })
    }

    static func requestObjectPath(_ made: ServiceHarness.Response) throws -> String {
        let authorization = try #require(made.json["authorizationRequest"] as? String)
        let encoded = try #require(authorization.components(separatedBy: "request_uri=").last)
        return try #require(encoded.removingPercentEncoding).replacingOccurrences(of: "https://verifier.example", with: "")
    }

    @Test func headNeverTakesARequestObjectOrAResult() async throws {
        let harness = try Self.harness()
        defer { Task { await harness.stop() } }
        let made = try await harness.post("/v1/oid4vp/requests", json: ["flow": "cross-device"])
        let id = try #require(made.json["sessionId"] as? String)
        let objectPath = try Self.requestObjectPath(made)
        for _ in 0..<2 {
            let head = try await harness.request("HEAD", objectPath, anonymous: true)
            #expect(head.status == 405)
            #expect(head.headers["allow"] == "GET, POST", "HEAD is not offered where it would count a fetch")
        }
        // The request object is still there for the wallet.
        let responsePath = try await OpenID4VPFlowTests.responsePath(harness, made)
        _ = try await harness.request("POST", responsePath, body: Data("error=access_denied".utf8), headers: Self.form, anonymous: true)
        // HEAD on the result, with or without the integrator's token, takes nothing.
        #expect(try await harness.request("HEAD", "/v1/oid4vp/sessions/\(id)/result", anonymous: true).status == 405)
        #expect(try await harness.request("HEAD", "/v1/oid4vp/sessions/\(id)/result").status == 405)
        let result = try await harness.request("GET", "/v1/oid4vp/sessions/\(id)/result")
        #expect(result.status == 422 && result.json["code"] as? String == "WALLET_DECLINED")
        // Routes without a side effect still answer HEAD.
        #expect(try await harness.request("HEAD", "/healthz", anonymous: true).status == 200)
        await harness.stop()
    }

    /// An integrator that leaves its results unfetched is refused new sessions (429 for the integrator), never its
    /// wallets: each answer gets `200 {}` and its result is there to fetch.
    @Test func aWalletsAnswerIsNeverLostToItsIntegratorsQuota() async throws {
        let harness = try Self.harness(perIntegrator: 2)
        defer { Task { await harness.stop() } }
        var sessions: [(id: String, responsePath: String)] = []
        for _ in 0..<2 {
            let made = try await harness.post("/v1/oid4vp/requests", json: ["flow": "cross-device"])
            #expect(made.status == 201)
            sessions.append((try #require(made.json["sessionId"] as? String), try await OpenID4VPFlowTests.responsePath(harness, made)))
        }
        for session in sessions {
            let answered = try await harness.request("POST", session.responsePath, body: Data("error=access_denied".utf8),
                                                     headers: Self.form, anonymous: true)
            #expect(answered.status == 200 && answered.text == "{}")
        }
        // Two results wait unfetched: the share is full, and the integrator hears it when it asks for more.
        let refused = try await harness.post("/v1/oid4vp/requests", json: ["flow": "cross-device"])
        #expect(refused.status == 429 && refused.json["code"] as? String == "INTEGRATOR_QUOTA_EXCEEDED", "\(refused.json)")
        for session in sessions {
            let result = try await harness.request("GET", "/v1/oid4vp/sessions/\(session.id)/result")
            #expect(result.status == 422 && result.json["code"] as? String == "WALLET_DECLINED")
        }
        #expect(try await harness.post("/v1/oid4vp/requests", json: ["flow": "cross-device"]).status == 201)
        await harness.stop()
    }

    /// The poll ends: 202 while the wallet may still answer, 410 once the session expired unanswered.
    @Test func thePollEndsWhenTheSessionExpiresUnanswered() async throws {
        let clock = ManualClock(TestClock.date("2030-01-01T00:00:00Z"))
        let harness = try Self.harness(clock: clock)
        defer { Task { await harness.stop() } }
        let made = try await harness.post("/v1/oid4vp/requests", json: ["flow": "cross-device"])
        let id = try #require(made.json["sessionId"] as? String)
        #expect(try await harness.request("GET", "/v1/oid4vp/sessions/\(id)/result").status == 202)
        clock.advance(by: 301)
        let gone = try await harness.request("GET", "/v1/oid4vp/sessions/\(id)/result")
        #expect(gone.status == 410 && gone.json["code"] as? String == "SESSION_EXPIRED")
        // Past the room reserved for its result too (the session's expiry + 300 s), still 410 while it is remembered.
        clock.advance(by: 349)
        #expect(try await harness.request("GET", "/v1/oid4vp/sessions/\(id)/result").status == 410)
        await harness.stop()
    }

    @Test(arguments: [
        "https://shop.example/done\r\nSet-Cookie: a=b", "https://shop.example/do ne", "https://shop.example/done\t",
        "https://user@shop.example/done", "https://shop.example/done#fragment", "http://shop.example/done",
        "//shop.example/done", "https://shop.example:99999/", "https://shop.example/%zz", "https://shop.exämple/",
        "https://shop.example.evil.example/", "javascript:alert(1)", "https://shop.example\u{0}/",
    ])
    func aRedirectURIThatIsNotAnAbsoluteHTTPSURLOnAnAllowedOriginIsRefused(_ redirect: String) async throws {
        let harness = try Self.harness()
        defer { Task { await harness.stop() } }
        let refused = try await harness.post("/v1/oid4vp/requests", json: ["flow": "cross-device", "redirectUri": redirect])
        #expect(refused.status == 400, "\(redirect.debugDescription)")
        #expect((refused.json["detail"] as? String)?.hasPrefix("\"redirectUri\" ") == true, "\(refused.json)")
        await harness.stop()
    }

    @Test func aRedirectURIOnAnAllowedOriginIsKept() async throws {
        let harness = try Self.harness()
        defer { Task { await harness.stop() } }
        for redirect in ["https://SHOP.example/done?x=1&y=%20", "https://shop.example:443/done", "https://shop.example"] {
            #expect(try await harness.post("/v1/oid4vp/requests", json: ["flow": "cross-device", "redirectUri": redirect]).status == 201,
                    "\(redirect)")
        }
        await harness.stop()
    }

    static func query(credentialSets: Int, options: Int, extra: [String: Any] = [:]) -> [String: Any] {
        var query: [String: Any] = ["credentials": [[
            "id": "mdl", "format": "mso_mdoc", "meta": ["doctype_value": "org.iso.18013.5.1.mDL"],
            "claims": [["path": ["org.iso.18013.5.1", "age_over_21"]]],
        ] as [String: Any]]]
        query["credential_sets"] = Array(repeating: ["options": Array(repeating: ["mdl"], count: options)], count: credentialSets)
        for (key, value) in extra { query[key] = value }
        return query
    }

    /// Every DCQL array has a limit: at the limit a query is taken and its session stays readable through the
    /// wallet's answer; one past it is 400 naming the member.
    @Test func dcqlLimitsAtTheirEdges() async throws {
        let harness = try Self.harness()
        defer { Task { await harness.stop() } }
        let atLimit = try await harness.post("/v1/oid4vp/requests", json: ["flow": "cross-device", "dcql_query": Self.query(credentialSets: 16, options: 16)])
        #expect(atLimit.status == 201, "\(atLimit.json)")
        let id = try #require(atLimit.json["sessionId"] as? String)
        let answered = try await harness.request("POST", try await OpenID4VPFlowTests.responsePath(harness, atLimit),
                                                 body: Data("error=access_denied".utf8), headers: Self.form, anonymous: true)
        #expect(answered.status == 200)
        let result = try await harness.request("GET", "/v1/oid4vp/sessions/\(id)/result")
        #expect(result.status == 422 && result.json["code"] as? String == "WALLET_DECLINED", "the stored session was read back")
        for (sets, options, member) in [(17, 1, "dcql_query.credential_sets"), (1, 17, "dcql_query.credential_sets[0].options")] {
            let over = try await harness.post("/v1/oid4vp/requests", json: ["origin": "https://shop.example",
                                                                             "dcql_query": Self.query(credentialSets: sets, options: options)])
            #expect(over.status == 400, "\(sets) x \(options)")
            #expect((over.json["detail"] as? String)?.hasPrefix(member + " ") == true, "\(over.json)")
        }
        // 60,000 options (the reported attack) are refused at creation, before any decoder pays for each value.
        let attack = try await harness.post("/v1/oid4vp/requests", json: ["origin": "https://shop.example",
                                                                          "dcql_query": Self.query(credentialSets: 1, options: 60_000)])
        #expect(attack.status == 400 && attack.json["detail"] as? String == "the body holds more than 8192 JSON values", "\(attack.json)")
        await harness.stop()
    }

    /// What a session keeps is bounded in bytes: a large unknown DCQL member or very long element names make a
    /// request too large to keep (400 `SESSION_TOO_LARGE`), wherever the count limits would allow it.
    @Test func aSessionKeepsABoundedNumberOfBytes() async throws {
        let harness = try Self.harness()
        defer { Task { await harness.stop() } }
        // An unknown member goes into the signed request unchanged: the query is bounded as sent (64 KiB)...
        let huge = try await harness.post("/v1/oid4vp/requests", json: [
            "origin": "https://shop.example",
            "dcql_query": Self.query(credentialSets: 1, options: 1, extra: ["x-unknown": String(repeating: "x", count: 900_000)])])
        #expect(huge.status == 400 && (huge.json["detail"] as? String)?.hasPrefix("dcql_query is ") == true, "\(huge.json)")
        // ...and the request object a cross-device session keeps is bounded too: a query just under its own bound, with
        // the rest of the request object's claims, is over the 64 KiB a session keeps.
        let unknownMember = try await harness.post("/v1/oid4vp/requests", json: [
            "flow": "cross-device",
            "dcql_query": Self.query(credentialSets: 1, options: 1, extra: ["x-unknown": String(repeating: "x", count: 65_000)])])
        #expect(unknownMember.status == 400 && unknownMember.json["code"] as? String == "SESSION_TOO_LARGE", "\(unknownMember.json)")
        let names = (0..<256).map { String(repeating: "n", count: 250) + String(format: "%05d", $0) }
        let documents = (0..<4).map { index in
            ["docType": "org.example.\(index)", "elements": ["org.example.ns": Dictionary(uniqueKeysWithValues: names.map { ($0, false) })]]
                as [String: Any]
        }
        let longNames = try await harness.post("/v1/web/requests", json: ["origin": "https://shop.example", "documents": documents])
        #expect(longNames.status == 400 && longNames.json["code"] as? String == "SESSION_TOO_LARGE", "\(longNames.json)")
        // An ordinary request is far below the bound.
        #expect(try await harness.post("/v1/web/requests", json: ["origin": "https://shop.example"]).status == 201)
        await harness.stop()
    }
}
