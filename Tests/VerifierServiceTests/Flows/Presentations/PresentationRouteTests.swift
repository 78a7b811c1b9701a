import Foundation
import SessionStore
import Testing
import TestSupport
import VerifierConfiguration

/// `POST /v1/presentations/requests` and `/v1/presentations/verify` over real sockets: one request offered over every
/// protocol the configuration and the origin allow, answered end to end by the TEST-ONLY Python wallets
/// (`TestVectors/generator/dc_wallet.py`, which plays the browser choosing a request and hands it to `web_wallet.py`
/// or `oid4vp_wallet.py`), one session used once whichever protocol answers. Each check has a case that passes it
/// and one that fails it.
@Suite(.serialized)
struct PresentationRouteTests {
    static let wallet = Fixtures.testVectors.appendingPathComponent("generator/dc_wallet.py")
    static let shop = "https://shop.example"
    static let otherToken = "other-integrator-token-0123456789"
    static let json = ["Content-Type": "application/json"]

    /// readerAuth (mode both) and both flows; `web` and `oid4vp` are the origins each allows (nil: no section).
    static func harness(web: [String]? = WebFlowTests.origins, oid4vp: [String]? = WebFlowTests.origins,
                        readerAuth: Bool = true, presentations: [String: Any]? = nil, sdJwtVc: Bool = false,
                        clock: ManualClock? = nil) throws -> ServiceHarness
    {
        try ServiceHarness(anchors: [ServiceHarness.pki.appendingPathComponent("iaca-p256.pem")], clock: clock) { config in
            WebFlowTests.configure(mode: "both")(&config)
            if let web {
                config["web"] = ["allowedOrigins": web, "sessionTTLSeconds": 300]
            } else {
                config["web"] = nil
            }
            if !readerAuth { config["readerAuth"] = nil }
            if let oid4vp { config["oid4vp"] = ["allowedOrigins": oid4vp, "sessionTTLSeconds": 300] }
            if let presentations { config["presentations"] = presentations }
            if sdJwtVc {
                config["sdJwtVc"] = ["issuerDirectory": "sd-jwt-vc-issuers",
                                     "seedDirectory": SDJWTVCVectors.folder.appendingPathComponent("trusted-issuers").path]
            }
            config["integrators"] = ["tokens": [ServiceHarness.integratorName: ServiceHarness.integratorToken, "other": otherToken]]
        }
    }

    static func create(_ harness: ServiceHarness, _ body: [String: Any] = ["origin": shop]) async throws -> ServiceHarness.Response {
        try await harness.post("/v1/presentations/requests", json: body)
    }

    /// The protocols a 201 offers, checked against its `digital.requests` (the same, in the same order).
    static func offered(_ made: ServiceHarness.Response) throws -> [String] {
        let protocols = try #require(made.json["protocols"] as? [String], "\(made.text)")
        let digital = try #require(made.json["digital"] as? [String: Any])
        #expect(Set(digital.keys) == ["requests"])
        let requests = try #require(digital["requests"] as? [[String: Any]])
        #expect(requests.map { $0["protocol"] as? String } == protocols, "digital.requests follow protocols")
        #expect(requests.allSatisfy { Set($0.keys) == ["protocol", "data"] })
        return protocols
    }

    /// The protocols offered for `body` (a 201 expected).
    static func offers(_ harness: ServiceHarness, _ body: [String: Any] = ["origin": shop]) async throws -> [String] {
        let made = try await create(harness, body)
        #expect(made.status == 201, "\(made.text)")
        return try offered(made)
    }

    /// The browser and a wallet: `dc_wallet.py` answers the request of `name` (nil: the first offered) in the 201 answer
    /// `made`, after checking it (reader signatures, request object, DCQL); the body for /v1/presentations/verify.
    static func answer(_ made: ServiceHarness.Response, _ name: String?, origin: String = shop) async throws -> Data {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("presentation-\(UUID().uuidString).json")
        try made.body.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        var arguments = ["python3", wallet.path, file.path, "--mode", "both", "--origin", origin,
                         "--reader-root", WebWalletInteropTests.readerRoot.path, "--now", "1893456000"]
        if let name { arguments += ["--protocol", name] }
        let run = try await ProcessRunner.start(arguments).value
        #expect(run.status == 0, "dc_wallet.py: \(run.error)")
        let line = try #require(run.output.split(separator: "\n").last.map(String.init), "dc_wallet.py printed nothing: \(run.error)")
        let body = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(body["sessionId"] as? String == made.json["sessionId"] as? String)
        let expected = try name ?? offered(made).first
        #expect((body["credential"] as? [String: Any])?["protocol"] as? String == expected)
        return Data(line.utf8)
    }

    static func verify(_ harness: ServiceHarness, _ body: Data, headers: [String: String] = [:]) async throws -> ServiceHarness.Response {
        try await harness.request("POST", "/v1/presentations/verify", body: body, headers: json.merging(headers) { $1 })
    }

    static func verify(_ harness: ServiceHarness, _ body: [String: Any]) async throws -> ServiceHarness.Response {
        try await verify(harness, try JSONSerialization.data(withJSONObject: body))
    }

    /// `body` with another session id, or another protocol named for the same data.
    static func edited(_ body: Data, sessionId: String? = nil, protocol name: String? = nil) throws -> [String: Any] {
        var object = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
        if let sessionId { object["sessionId"] = sessionId }
        if let name {
            var credential = try #require(object["credential"] as? [String: Any])
            credential["protocol"] = name
            object["credential"] = credential
        }
        return object
    }

    static func expectVerified(_ reply: ServiceHarness.Response, _ name: String) {
        #expect(reply.status == 200 && reply.json["verified"] as? Bool == true, "\(reply.text)")
        #expect(reply.json["protocol"] as? String == name, "the report names the protocol that answered: \(reply.text)")
        let document = (reply.json["documents"] as? [[String: Any]])?.first
        #expect(document?["docType"] as? String == "org.iso.18013.5.1.mDL", "\(reply.text)")
        let claims = document?["claims"] as? [String: [String: Any]]
        #expect(claims?["org.iso.18013.5.1"]?["family_name"] as? String == "Mustermann", "\(reply.text)")
    }

    static func expectProblem(_ reply: ServiceHarness.Response, _ status: Int, _ code: String) {
        #expect(reply.status == status && reply.json["code"] as? String == code, "expected \(status) \(code): \(reply.status) \(reply.text)")
    }

    static func presence(_ harness: ServiceHarness, _ id: String, owner: String = ServiceHarness.integratorName) async -> SessionPresence {
        await harness.service.sessionStore.presence(id: id, kind: "dc-presentation", owner: owner,
                                                    now: TestClock.date("2030-01-01T00:00:00Z"))
    }

    /// The TEST-ONLY browser itself, offline: it answers each protocol of one answer with that protocol's wallet, and
    /// refuses a protocol not offered and `protocols` that disagree with the requests.
    @Test func theWalletsSelfTestPasses() async throws {
        let run = try await ProcessRunner.start(["python3", Self.wallet.path, "--self-test"]).value
        #expect(run.status == 0 && run.output.contains("self-test passed"), "\(run.output)\n\(run.error)")
    }

    // MARK: - End to end

    /// The contract of a request, then the Annex C wallet's answer: 200 with `"protocol": "org-iso-mdoc"`. The same
    /// answer to another session (its key, its transcript) does not decrypt.
    @Test func theAnnexCWalletsAnswerVerifies() async throws {
        let harness = try Self.harness()
        defer { Task { await harness.stop() } }
        let made = try await Self.create(harness)
        #expect(made.status == 201, "\(made.text)")
        #expect(Set(made.json.keys) == ["sessionId", "expiresAt", "protocols", "digital"])
        let id = try #require(made.json["sessionId"] as? String)
        #expect(SessionIdentifier.isWellFormed(id))
        #expect(made.json["expiresAt"] as? String == "2030-01-01T00:05:00Z")
        #expect(try Self.offered(made) == ["openid4vp-v1-signed", "org-iso-mdoc"])
        #expect(await Self.presence(harness, id) == .open)
        // Nothing secret reaches the logs.
        #expect(!harness.logs.all.joined().contains(id))

        let body = try await Self.answer(made, "org-iso-mdoc")
        let other = try await Self.create(harness)
        let otherId = try #require(other.json["sessionId"] as? String)
        let misdirected = try await Self.verify(harness, try Self.edited(body, sessionId: otherId))
        #expect(misdirected.status == 422 && misdirected.json["code"] as? String == "DECRYPTION_FAILED", "\(misdirected.text)")
        #expect(misdirected.json["protocol"] as? String == "org-iso-mdoc")

        let verified = try await Self.verify(harness, body)
        Self.expectVerified(verified, "org-iso-mdoc")
        #expect(verified.json["credentialIds"] == nil, "an Annex C report")
        #expect(await Self.presence(harness, id) == .alreadyUsed)
        await harness.stop()
    }

    /// The OpenID4VP wallet's answer to the signed request (dc_api.jwt): 200 with `"protocol": "openid4vp-v1-signed"`
    /// and the DCQL credential ids. The same JWE to another session names a key that session does not have.
    @Test func theOpenID4VPWalletsAnswerVerifies() async throws {
        let harness = try Self.harness()
        defer { Task { await harness.stop() } }
        let made = try await Self.create(harness)
        let body = try await Self.answer(made, "openid4vp-v1-signed")
        let other = try await Self.create(harness)
        let otherId = try #require(other.json["sessionId"] as? String)
        let misdirected = try await Self.verify(harness, try Self.edited(body, sessionId: otherId))
        #expect(misdirected.status == 422, "\(misdirected.text)")
        #expect(["RECIPIENT_KEY_UNKNOWN", "DECRYPTION_FAILED"].contains(misdirected.json["code"] as? String ?? ""), "\(misdirected.text)")
        #expect(misdirected.json["protocol"] as? String == "openid4vp-v1-signed")

        let verified = try await Self.verify(harness, body)
        Self.expectVerified(verified, "openid4vp-v1-signed")
        #expect(verified.json["credentialIds"] as? [String] == ["org_iso_18013_5_1_mDL"])
        await harness.stop()
    }

    /// The default answer of `dc_wallet.py` is the first request offered: with the configuration's order changed it
    /// answers Annex C, and the unsigned OpenID4VP request (offered only when configured) verifies too.
    @Test func everyOfferedProtocolVerifies() async throws {
        let harness = try Self.harness(presentations: ["protocols": ["org-iso-mdoc", "openid4vp-v1-unsigned", "openid4vp-v1-signed"]])
        defer { Task { await harness.stop() } }
        for name in [nil, "openid4vp-v1-unsigned", "openid4vp-v1-signed"] {
            let made = try await Self.create(harness)
            #expect(try Self.offered(made) == ["org-iso-mdoc", "openid4vp-v1-unsigned", "openid4vp-v1-signed"])
            let body = try await Self.answer(made, name)
            let verified = try await Self.verify(harness, body)
            Self.expectVerified(verified, name ?? "org-iso-mdoc")
        }
        await harness.stop()
    }

    /// One session, used once: a second answer in either protocol is 409, whatever the first was.
    @Test func aSecondAnswerInEitherProtocolIs409() async throws {
        let harness = try Self.harness()
        defer { Task { await harness.stop() } }
        for (first, second) in [("org-iso-mdoc", "openid4vp-v1-signed"), ("openid4vp-v1-signed", "org-iso-mdoc"),
                                ("org-iso-mdoc", "org-iso-mdoc")] {
            let made = try await Self.create(harness)
            let firstBody = try await Self.answer(made, first)
            let secondBody = try await Self.answer(made, second)
            let firstReply = try await Self.verify(harness, firstBody)
            Self.expectVerified(firstReply, first)
            let secondReply = try await Self.verify(harness, secondBody)
            Self.expectProblem(secondReply, 409, "SESSION_ALREADY_USED")
        }
        // A failed first answer uses the session too: no second try, whatever the protocol.
        let made = try await Self.create(harness)
        let good = try await Self.answer(made, "org-iso-mdoc")
        let madeId = try #require(made.json["sessionId"] as? String)
        let declined: [String: Any] = ["sessionId": madeId,
                                       "credential": ["protocol": "openid4vp-v1-signed", "data": ["error": "access_denied"]]]
        let failed = try await Self.verify(harness, declined)
        #expect(failed.status == 422 && failed.json["code"] as? String == "WALLET_DECLINED", "\(failed.text)")
        #expect(failed.json["protocol"] as? String == "openid4vp-v1-signed")
        let after = try await Self.verify(harness, good)
        Self.expectProblem(after, 409, "SESSION_ALREADY_USED")
        await harness.stop()
    }

    /// An answer in a protocol the session did not offer is 400 PROTOCOL_NOT_OFFERED, and the session is used: the
    /// real answer after it is 409. The offered protocol's answer to another session of the same configuration verifies.
    @Test func aProtocolNotOfferedIsRefusedAndUsesTheSession() async throws {
        let harness = try Self.harness(presentations: ["protocols": ["org-iso-mdoc"]])
        defer { Task { await harness.stop() } }
        let made = try await Self.create(harness)
        #expect(try Self.offered(made) == ["org-iso-mdoc"])
        let id = try #require(made.json["sessionId"] as? String)
        let good = try await Self.answer(made, "org-iso-mdoc")
        let refused = try await Self.verify(harness, try Self.edited(good, protocol: "openid4vp-v1-signed"))
        Self.expectProblem(refused, 400, "PROTOCOL_NOT_OFFERED")
        #expect((refused.json["detail"] as? String)?.contains("org-iso-mdoc") == true, "\(refused.text)")
        #expect(await Self.presence(harness, id) == .alreadyUsed)
        Self.expectProblem(try await Self.verify(harness, good), 409, "SESSION_ALREADY_USED")

        // Names nobody offers, on sessions of their own; the offered protocol on another session verifies.
        for name in ["openid4vp-v1-unsigned", "openid4vp", "ORG-ISO-MDOC", ""] {
            let session = try await Self.create(harness)
            let body = try await Self.answer(session, "org-iso-mdoc")
            Self.expectProblem(try await Self.verify(harness, try Self.edited(body, protocol: name)), 400, "PROTOCOL_NOT_OFFERED")
        }
        let fresh = try await Self.create(harness)
        Self.expectVerified(try await Self.verify(harness, try await Self.answer(fresh, "org-iso-mdoc")), "org-iso-mdoc")
        await harness.stop()
    }

    /// Another integrator's session id is 404 and leaves the session to its owner, who verifies it.
    @Test func anotherIntegratorsSessionIsNotFound() async throws {
        let harness = try Self.harness()
        defer { Task { await harness.stop() } }
        let made = try await Self.create(harness)
        let id = try #require(made.json["sessionId"] as? String)
        let body = try await Self.answer(made, "openid4vp-v1-signed")
        let stranger = try await Self.verify(harness, body, headers: ["Authorization": "Bearer \(Self.otherToken)"])
        Self.expectProblem(stranger, 404, "SESSION_NOT_FOUND")
        #expect(await Self.presence(harness, id) == .open)
        #expect(await Self.presence(harness, id, owner: "other") == .notFound)
        Self.expectVerified(try await Self.verify(harness, body), "openid4vp-v1-signed")
        // Unknown and malformed ids are 404 too; no token is 401.
        let unknown = try Self.edited(body, sessionId: String(repeating: "A", count: 43))
        Self.expectProblem(try await Self.verify(harness, unknown), 404, "SESSION_NOT_FOUND")
        Self.expectProblem(try await Self.verify(harness, try Self.edited(body, sessionId: "short")), 404, "SESSION_NOT_FOUND")
        let anonymous = try await harness.request("POST", "/v1/presentations/verify", body: body, headers: Self.json, anonymous: true)
        #expect(anonymous.status == 401)
        let anonymousCreate = try await harness.request("POST", "/v1/presentations/requests",
                                                        body: Data(#"{"origin": "https://shop.example"}"#.utf8),
                                                        headers: Self.json, anonymous: true)
        #expect(anonymousCreate.status == 401)
        await harness.stop()
    }

    // MARK: - What is offered

    /// The origin decides: allowed by neither flow 400 ORIGIN_NOT_ALLOWED; by one flow only that flow's protocols; by
    /// both, both.
    @Test func theOriginDecidesTheProtocols() async throws {
        let harness = try Self.harness(web: ["https://shop.example", "https://web-only.example"],
                                       oid4vp: ["https://shop.example", "https://other.example"])
        defer { Task { await harness.stop() } }
        for origin in ["https://evil.example", "https://shop.example/", "https://SHOP.example", "shop.example", ""] {
            Self.expectProblem(try await Self.create(harness, ["origin": origin]), 400, "ORIGIN_NOT_ALLOWED")
        }
        #expect(try await Self.offers(harness, ["origin": "https://shop.example"]) == ["openid4vp-v1-signed", "org-iso-mdoc"])
        let oid4vpOnly = try await Self.create(harness, ["origin": "https://other.example"])
        #expect(try Self.offered(oid4vpOnly) == ["openid4vp-v1-signed"])
        #expect(try await Self.offers(harness, ["origin": "https://web-only.example"]) == ["org-iso-mdoc"])
        // The OpenID4VP-only request verifies for its origin.
        let body = try await Self.answer(oid4vpOnly, nil, origin: "https://other.example")
        Self.expectVerified(try await Self.verify(harness, body), "openid4vp-v1-signed")
        await harness.stop()
    }

    /// `presentations.protocols` sets the order; without it the documented default (signed OpenID4VP, then Annex C;
    /// unsigned only when listed). A protocol the configuration leaves out is not offered.
    @Test func theConfiguredOrderIsRespected() async throws {
        let orders: [[String]] = [
            ["org-iso-mdoc", "openid4vp-v1-signed"], ["openid4vp-v1-unsigned", "org-iso-mdoc", "openid4vp-v1-signed"],
            ["openid4vp-v1-signed"], ["openid4vp-v1-unsigned"],
        ]
        for order in orders {
            let harness = try Self.harness(presentations: ["protocols": order])
            defer { Task { await harness.stop() } }
            #expect(try await Self.offers(harness) == order)
            await harness.stop()
        }
        let defaults = try Self.harness()
        defer { Task { await defaults.stop() } }
        #expect(try await Self.offers(defaults) == ["openid4vp-v1-signed", "org-iso-mdoc"])
        await defaults.stop()
    }

    /// A signed request needs readerAuth: without it the signed request is not offered by default (Annex C goes out
    /// unsigned), and a configuration that lists the signed one does not start (theConfigurationIsChecked).
    @Test func theSignedRequestNeedsReaderAuth() async throws {
        let unsigned = try Self.harness(readerAuth: false)
        defer { Task { await unsigned.stop() } }
        #expect(try await Self.offers(unsigned) == ["org-iso-mdoc"])
        await unsigned.stop()
        let signed = try Self.harness(presentations: ["protocols": ["openid4vp-v1-signed"]])
        defer { Task { await signed.stop() } }
        #expect(try await Self.offers(signed) == ["openid4vp-v1-signed"])
        await signed.stop()
    }

    /// Annex C only for what a DeviceRequest can say: a DCQL query with credential_sets goes out as OpenID4VP only,
    /// and for an origin only the web flow allows there is nothing to offer. The same query without them is offered
    /// both ways.
    @Test func annexCOnlyForMdocQueriesWithoutAlternatives() async throws {
        let harness = try Self.harness(web: ["https://shop.example", "https://web-only.example"], oid4vp: ["https://shop.example"])
        defer { Task { await harness.stop() } }
        let mdl: [String: Any] = ["id": "mdl", "format": "mso_mdoc", "meta": ["doctype_value": "org.iso.18013.5.1.mDL"],
                                  "claims": [["path": ["org.iso.18013.5.1", "family_name"]]]]
        let plain: [String: Any] = ["credentials": [mdl]]
        let sets: [String: Any] = ["credentials": [mdl], "credential_sets": [["options": [["mdl"]]]]]
        var multiple = mdl
        multiple["multiple"] = true
        #expect(try await Self.offers(harness, ["origin": Self.shop, "dcql_query": plain]) == ["openid4vp-v1-signed", "org-iso-mdoc"])
        #expect(try await Self.offers(harness, ["origin": Self.shop, "dcql_query": sets]) == ["openid4vp-v1-signed"])
        #expect(try await Self.offers(harness, ["origin": Self.shop, "dcql_query": ["credentials": [multiple]]])
                == ["openid4vp-v1-signed"])
        // Two credentials of one docType (two separate mDLs): a DeviceRequest's two DocRequests of one docType may be
        // answered by one document, so it would not say what the query asks.
        var second = mdl
        second["id"] = "mdl2"
        #expect(try await Self.offers(harness, ["origin": Self.shop, "dcql_query": ["credentials": [mdl, second]]])
                == ["openid4vp-v1-signed"])
        #expect(try await Self.offers(harness, ["origin": "https://web-only.example", "dcql_query": plain]) == ["org-iso-mdoc"])
        let nothing = try await Self.create(harness, ["origin": "https://web-only.example", "dcql_query": sets])
        Self.expectProblem(nothing, 400, "NO_PROTOCOL_AVAILABLE")
        // The query is read as on /v1/oid4vp/requests: documents or dcql_query, not both; a broken query is refused.
        Self.expectProblem(try await Self.create(harness, ["origin": Self.shop, "dcql_query": plain, "documents": []]), 400, "INVALID_REQUEST")
        Self.expectProblem(try await Self.create(harness, ["origin": Self.shop, "dcql_query": ["credentials": []]]), 400, "INVALID_REQUEST")
        Self.expectProblem(try await Self.create(harness, ["origin": Self.shop, "documnets": []]), 400, "INVALID_REQUEST")
        Self.expectProblem(try await Self.create(harness, [:]), 400, "INVALID_REQUEST")
        // The documents shorthand goes out both ways, and the Annex C request asks for exactly those elements.
        let documents: [[String: Any]] = [["docType": "org.iso.18013.5.1.mDL", "elements": ["org.iso.18013.5.1": ["family_name": false]]]]
        let made = try await Self.create(harness, ["origin": Self.shop, "documents": documents])
        #expect(try Self.offered(made) == ["openid4vp-v1-signed", "org-iso-mdoc"])
        let verified = try await Self.verify(harness, try await Self.answer(made, "org-iso-mdoc"))
        Self.expectVerified(verified, "org-iso-mdoc")
        let claims = ((verified.json["documents"] as? [[String: Any]])?.first?["claims"] as? [String: [String: Any]])?["org.iso.18013.5.1"]
        #expect(claims.map { Set($0.keys) } == ["family_name"], "\(verified.text)")
        await harness.stop()
    }

    /// An SD-JWT VC query needs the sdJwtVc section (400 otherwise) and goes out as OpenID4VP only; the OpenID4VP
    /// wallet's SD-JWT VC then verifies.
    @Test func anSDJWTVCQueryIsOfferedOverOpenID4VPOnly() async throws {
        let query: [String: Any] = ["credentials": [["id": "pid", "format": "dc+sd-jwt", "meta": ["vct_values": ["urn:eudi:pid:1"]],
                                                     "claims": [["path": ["given_name"]], ["path": ["address", "locality"]]]]]]
        let without = try Self.harness()
        defer { Task { await without.stop() } }
        Self.expectProblem(try await Self.create(without, ["origin": Self.shop, "dcql_query": query]), 400, "INVALID_REQUEST")
        await without.stop()
        let harness = try Self.harness(sdJwtVc: true)
        defer { Task { await harness.stop() } }
        let made = try await Self.create(harness, ["origin": Self.shop, "dcql_query": query])
        #expect(try Self.offered(made) == ["openid4vp-v1-signed"])
        let verified = try await Self.verify(harness, try await Self.answer(made, nil))
        #expect(verified.status == 200 && verified.json["verified"] as? Bool == true, "\(verified.text)")
        #expect(verified.json["protocol"] as? String == "openid4vp-v1-signed")
        #expect((verified.json["documents"] as? [[String: Any]])?.first?["format"] as? String == "dc+sd-jwt")
        await harness.stop()
    }

    // MARK: - Sessions, bodies, configuration

    /// `presentations.sessionTTLSeconds` sets the lifetime: the session answers until then and is 410 after.
    @Test func sessionsLiveForTheConfiguredTime() async throws {
        let clock = ManualClock(TestClock.date("2030-01-01T00:00:00Z"))
        let harness = try Self.harness(presentations: ["sessionTTLSeconds": 60], clock: clock)
        defer { Task { await harness.stop() } }
        let late = try await Self.create(harness)
        #expect(late.json["expiresAt"] as? String == "2030-01-01T00:01:00Z")
        let onTime = try await Self.create(harness)
        let lateBody = try await Self.answer(late, "org-iso-mdoc")
        let onTimeBody = try await Self.answer(onTime, "org-iso-mdoc")
        clock.advance(by: 59)
        Self.expectVerified(try await Self.verify(harness, onTimeBody), "org-iso-mdoc")
        clock.advance(by: 2)
        Self.expectProblem(try await Self.verify(harness, lateBody), 410, "SESSION_EXPIRED")
        await harness.stop()
    }

    /// A body that is not `{sessionId, credential: {protocol, data}, verificationTime?}` is 400 and leaves the session
    /// open: the wallet's answer verifies after it.
    @Test func aMalformedVerifyBodyLeavesTheSessionOpen() async throws {
        let harness = try Self.harness()
        defer { Task { await harness.stop() } }
        let made = try await Self.create(harness)
        let id = try #require(made.json["sessionId"] as? String)
        let body = try await Self.answer(made, "org-iso-mdoc")
        let credential = try #require(try Self.edited(body)["credential"] as? [String: Any])
        let malformed: [[String: Any]] = [
            ["sessionId": id],
            ["sessionId": id, "response": credential["data"] ?? ""],
            ["sessionId": id, "credential": ["protocol": "org-iso-mdoc"]],
            ["sessionId": id, "credential": ["data": credential["data"] ?? ""]],
            ["sessionId": id, "credential": ["protocol": 5, "data": credential["data"] ?? ""]],
            ["sessionId": id, "credential": credential, "verificationTime": "yesterday"],
            ["sessionId": id, "credential": credential, "extra": true],
        ]
        for bad in malformed {
            let reply = try await Self.verify(harness, bad)
            #expect(reply.status == 400, "\(bad): \(reply.text)")
        }
        #expect(await Self.presence(harness, id) == .open)
        var timed = try Self.edited(body)
        timed["verificationTime"] = "2030-01-01T00:00:00Z"
        Self.expectVerified(try await Self.verify(harness, timed), "org-iso-mdoc")
        await harness.stop()
    }

    /// Without a web or oid4vp section there is nothing to offer with: 503 PRESENTATIONS_NOT_CONFIGURED on both routes.
    @Test func withoutAFlowThePresentationRoutesAre503() async throws {
        let harness = try Self.harness(web: nil, oid4vp: nil)
        defer { Task { await harness.stop() } }
        Self.expectProblem(try await Self.create(harness), 503, "PRESENTATIONS_NOT_CONFIGURED")
        let verify = try await Self.verify(harness, ["sessionId": String(repeating: "A", count: 43),
                                                     "credential": ["protocol": "org-iso-mdoc", "data": ["response": "AA"]]])
        Self.expectProblem(verify, 503, "PRESENTATIONS_NOT_CONFIGURED")
        await harness.stop()
        // Either flow alone is enough.
        for (web, oid4vp) in [(WebFlowTests.origins, nil), (nil, WebFlowTests.origins)] as [([String]?, [String]?)] {
            let one = try Self.harness(web: web, oid4vp: oid4vp)
            defer { Task { await one.stop() } }
            #expect(try await Self.create(one).status == 201)
            await one.stop()
        }
    }

    /// The `presentations` keys are checked at start-up, each refusal naming its key.
    @Test func theConfigurationIsChecked() async throws {
        func key(_ section: [String: Any], web: [String]? = WebFlowTests.origins, oid4vp: [String]? = WebFlowTests.origins,
                 readerAuth: Bool = true) async -> String? {
            do {
                let harness = try Self.harness(web: web, oid4vp: oid4vp, readerAuth: readerAuth, presentations: section)
                await harness.stop()
                return nil
            } catch let error as ConfigurationError {
                return error.key
            } catch {
                return "\(error)"
            }
        }
        #expect(await key(["protocols": ["org-iso-mdoc", "org-iso-mdoc"]]) == "presentations.protocols[1]")
        #expect(await key(["protocols": ["openid4vp-v2"]]) == "presentations.protocols[0]")
        #expect(await key(["protocols": ["org-iso-mdoc", "OpenID4VP-v1-signed"]]) == "presentations.protocols[1]")
        #expect(await key(["protocols": [String]()]) == "presentations.protocols")
        #expect(await key(["protocols": "org-iso-mdoc"]) == "presentations.protocols")
        #expect(await key(["sessionTTLSeconds": 29]) == "presentations.sessionTTLSeconds")
        #expect(await key(["sessionTTLSeconds": 3601]) == "presentations.sessionTTLSeconds")
        #expect(await key(["order": ["org-iso-mdoc"]]) == "presentations.order")
        // A protocol whose section is missing could never be offered: refused at start, naming it.
        #expect(await key(["protocols": ["openid4vp-v1-signed"]], readerAuth: false) == "presentations.protocols[0]")
        #expect(await key(["protocols": ["org-iso-mdoc", "openid4vp-v1-unsigned"]], oid4vp: nil) == "presentations.protocols[1]")
        #expect(await key(["protocols": ["openid4vp-v1-unsigned", "org-iso-mdoc"]], web: nil) == "presentations.protocols[1]")
        // Every protocol once, in any order, and the bounds of the lifetime, are accepted.
        #expect(await key(["protocols": ["openid4vp-v1-unsigned", "org-iso-mdoc", "openid4vp-v1-signed"]]) == nil)
        #expect(await key(["sessionTTLSeconds": 30]) == nil)
        #expect(await key(["sessionTTLSeconds": 3600]) == nil)
        #expect(await key([:]) == nil)
    }
}
