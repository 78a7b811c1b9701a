import Foundation
import Testing
import TestSupport

/// `/v1/oid4vp/...` over real sockets: the request contract, a caller's DCQL query, modes the configuration refuses,
/// expiry, the wallet routes without a token, and the cross-device result before the wallet answered.
@Suite(.serialized)
struct OpenID4VPFlowTests {
    static func harness(clock: ManualClock? = nil, unencrypted: Bool = false, publicBaseURL: String? = "https://verifier.example")
        throws -> ServiceHarness
    {
        try ServiceHarness(anchors: [ServiceHarness.pki.appendingPathComponent("iaca-p256.pem")], clock: clock, configure: { config in
            WebFlowTests.configure(mode: "readerAuth")(&config)
            var section: [String: Any] = ["allowedOrigins": WebFlowTests.origins, "allowUnencryptedResponses": unencrypted]
            if let publicBaseURL { section["publicBaseUrl"] = publicBaseURL }
            config["oid4vp"] = section
        })
    }

    static func payload(ofJWS jws: String) throws -> [String: Any] {
        let part = String(jws.split(separator: ".")[1])
        let padded = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            + String(repeating: "=", count: (4 - part.count % 4) % 4)
        let data = try #require(Data(base64Encoded: padded))
        let object = try JSONSerialization.jsonObject(with: data)
        return try #require(object as? [String: Any])
    }

    /// The response URI's path for a cross-device request, read from its request object as a wallet would.
    static func responsePath(_ harness: ServiceHarness, _ made: ServiceHarness.Response) async throws -> String {
        let authorization = try #require(made.json["authorizationRequest"] as? String)
        let encoded = try #require(authorization.components(separatedBy: "request_uri=").last)
        let requestURI = try #require(encoded.removingPercentEncoding)
        let object = try await harness.request("GET", requestURI.replacingOccurrences(of: "https://verifier.example", with: ""), anonymous: true)
        #expect(object.status == 200)
        let responseURI = try #require(try payload(ofJWS: object.text)["response_uri"] as? String)
        return responseURI.replacingOccurrences(of: "https://verifier.example", with: "")
    }

    @Test func aSignedRequestHasTheContractShape() async throws {
        let harness = try Self.harness()
        defer { Task { await harness.stop() } }
        let made = try await harness.post("/v1/oid4vp/requests", json: ["origin": "https://shop.example"])
        #expect(made.status == 201)
        let request = try #require(made.json["request"] as? [String: Any])
        #expect(request["protocol"] as? String == "openid4vp-v1-signed")
        let jws = try #require((request["data"] as? [String: Any])?["request"] as? String)
        let parameters = try Self.payload(ofJWS: jws)
        #expect((parameters["client_id"] as? String)?.hasPrefix("x509_hash:") == true)
        #expect(parameters["expected_origins"] as? [String] == ["https://shop.example"])
        #expect(parameters["response_mode"] as? String == "dc_api.jwt")
        #expect((parameters["nonce"] as? String)?.count == 43)
        let metadata = try #require(parameters["client_metadata"] as? [String: Any])
        #expect(metadata["encrypted_response_enc_values_supported"] as? [String] == ["A128GCM", "A256GCM"])
        let key = try #require(((metadata["jwks"] as? [String: Any])?["keys"] as? [[String: Any]])?.first)
        #expect(key["alg"] as? String == "ECDH-ES" && key["use"] as? String == "enc" && key["kid"] != nil && key["d"] == nil)
        await harness.stop()
    }

    @Test func aCallersDCQLQueryIsCheckedAndSentUnchanged() async throws {
        let harness = try Self.harness()
        defer { Task { await harness.stop() } }
        let query: [String: Any] = [
            "credentials": [["id": "my_mdl", "format": "mso_mdoc", "meta": ["doctype_value": "org.iso.18013.5.1.mDL"],
                             "multiple": false, "future_member": 1,
                             "claims": [["id": "a", "path": ["org.iso.18013.5.1", "age_over_21"], "intent_to_retain": false]]]],
            "credential_sets": [["options": [["my_mdl"]]]],
        ]
        let made = try await harness.post("/v1/oid4vp/requests", json: ["origin": "https://shop.example", "signed": false,
                                                                         "dcql_query": query])
        #expect(made.status == 201)
        let data = try #require((made.json["request"] as? [String: Any])?["data"] as? [String: Any])
        let sent = try #require(data["dcql_query"] as? [String: Any])
        #expect(((sent["credentials"] as? [[String: Any]])?.first?["future_member"]) as? Int == 1)
        #expect(data["client_id"] == nil)

        let refused: [([String: Any], String)] = [
            (["credentials": []], "credentials"),
            (["credentials": [["id": "a b", "format": "mso_mdoc", "meta": ["doctype_value": "x"], "claims": [["path": ["n", "e"]]]]]], ".id"),
            (["credentials": [["id": "a", "format": "dc+sd-jwt", "meta": ["doctype_value": "x"], "claims": [["path": ["n", "e"]]]]]], "vct_values"),
            (["credentials": [["id": "a", "format": "ldp_vc", "meta": ["doctype_value": "x"], "claims": [["path": ["n", "e"]]]]]], "format"),
            (["credentials": [["id": "a", "format": "mso_mdoc", "meta": [:], "claims": [["path": ["n", "e"]]]]]], "doctype_value"),
            (["credentials": [["id": "a", "format": "mso_mdoc", "meta": ["doctype_value": "x"], "claims": [["path": ["n"]]]]]], "path"),
            (["credentials": [["id": "a", "format": "mso_mdoc", "meta": ["doctype_value": "x"], "claims": [["path": ["n", "e"]]]]],
              "credential_sets": [["options": [["b"]]]]], "credential_sets"),
        ]
        for (bad, needle) in refused {
            let answer = try await harness.post("/v1/oid4vp/requests", json: ["origin": "https://shop.example", "dcql_query": bad])
            #expect(answer.status == 400, "\(bad)")
            #expect((answer.json["detail"] as? String)?.contains(needle) == true, "\(answer.json)")
        }
        await harness.stop()
    }

    @Test func modesAndOriginsTheConfigurationDoesNotAllowAreRefused() async throws {
        let harness = try Self.harness(publicBaseURL: nil)
        defer { Task { await harness.stop() } }
        let plain = try await harness.post("/v1/oid4vp/requests", json: ["origin": "https://shop.example", "responseMode": "dc_api"])
        #expect(plain.status == 400 && plain.json["code"] as? String == "RESPONSE_MODE_NOT_ALLOWED")
        let origin = try await harness.post("/v1/oid4vp/requests", json: ["origin": "https://evil.example"])
        #expect(origin.status == 400 && origin.json["code"] as? String == "ORIGIN_NOT_ALLOWED")
        let crossDevice = try await harness.post("/v1/oid4vp/requests", json: ["flow": "cross-device"])
        #expect(crossDevice.status == 503 && crossDevice.json["code"] as? String == "OID4VP_PUBLIC_BASE_URL_NOT_CONFIGURED")
        let anonymous = try await harness.request("POST", "/v1/oid4vp/requests", body: Data(#"{"origin":"https://shop.example"}"#.utf8),
                                                  anonymous: true)
        #expect(anonymous.status == 401)
        await harness.stop()
    }

    @Test func anExpiredSessionIsGone() async throws {
        let clock = ManualClock(TestClock.date("2030-01-01T00:00:00Z"))
        let harness = try Self.harness(clock: clock)
        defer { Task { await harness.stop() } }
        let made = try await harness.post("/v1/oid4vp/requests", json: ["origin": "https://shop.example"])
        let id = try #require(made.json["sessionId"] as? String)
        clock.advance(by: 301)
        let late = try await harness.post("/v1/oid4vp/verify", json: ["sessionId": id, "response": ["error": "access_denied"]])
        #expect(late.status == 410 && late.json["code"] as? String == "SESSION_EXPIRED")
        await harness.stop()
    }

    /// The wallet routes need no token but reveal nothing: unknown ids are 404, and the caller's result is pending
    /// until the wallet answers; another integrator cannot read it.
    @Test func theCrossDeviceRoutesBeforeTheWalletAnswers() async throws {
        let harness = try Self.harness()
        defer { Task { await harness.stop() } }
        let made = try await harness.post("/v1/oid4vp/requests", json: ["flow": "cross-device"])
        #expect(made.status == 201)
        let id = try #require(made.json["sessionId"] as? String)
        let authorization = try #require(made.json["authorizationRequest"] as? String)
        #expect(authorization.hasPrefix("openid4vp://?client_id=x509_hash%3A"))
        #expect(authorization.contains("request_uri=https%3A%2F%2Fverifier.example%2Fv1%2Foid4vp%2Frequest-objects%2F"))
        let pending = try await harness.request("GET", "/v1/oid4vp/sessions/\(id)/result")
        #expect(pending.status == 202)
        let unknown = try await harness.request("GET", "/v1/oid4vp/sessions/\(String(repeating: "A", count: 43))/result")
        #expect(unknown.status == 404)
        let noSuchObject = try await harness.request("GET", "/v1/oid4vp/request-objects/\(String(repeating: "A", count: 43))", anonymous: true)
        #expect(noSuchObject.status == 404)
        let responsePath = try await Self.responsePath(harness, made)
        #expect(!responsePath.contains(id), "the wallet never sees the caller's session id")
        let notForm = try await harness.request("POST", responsePath, body: Data("%%%".utf8), anonymous: true)
        #expect(notForm.status == 400)
        let byHandle = try await harness.request("POST", "/v1/oid4vp/responses/\(id)", body: Data("error=access_denied".utf8),
                                                 headers: ["Content-Type": "application/x-www-form-urlencoded"], anonymous: true)
        #expect(byHandle.status == 404, "the caller's session id is not a response URI")
        // A wallet's post under a DC API session's id finds nothing: only cross-device sessions take wallet posts.
        let dcAPI = try await harness.post("/v1/oid4vp/requests", json: ["origin": "https://shop.example"])
        let dcAPIId = try #require(dcAPI.json["sessionId"] as? String)
        let wrongKind = try await harness.request("POST", "/v1/oid4vp/responses/\(dcAPIId)", body: Data("error=access_denied".utf8),
                                                  headers: ["Content-Type": "application/x-www-form-urlencoded"], anonymous: true)
        #expect(wrongKind.status == 404)
        // The wallet declines: the wallet gets {}, the caller the report.
        let declined = try await harness.request("POST", responsePath, body: Data("error=access_denied".utf8),
                                                 headers: ["Content-Type": "application/x-www-form-urlencoded"], anonymous: true)
        #expect(declined.status == 200 && declined.text == "{}")
        let report = try await harness.request("GET", "/v1/oid4vp/sessions/\(id)/result")
        #expect(report.status == 422 && report.json["code"] as? String == "WALLET_DECLINED")
        #expect(try await harness.request("GET", "/v1/oid4vp/sessions/\(id)/result").status == 409)
        await harness.stop()
    }

    /// A caller's redirect URI (on an allowed origin) is what the wallet is told after posting.
    @Test func theWalletIsSentToTheCallersRedirectURI() async throws {
        let harness = try Self.harness()
        defer { Task { await harness.stop() } }
        let bad = try await harness.post("/v1/oid4vp/requests", json: ["flow": "cross-device", "redirectUri": "https://evil.example/done"])
        #expect(bad.status == 400)
        let dcAPI = try await harness.post("/v1/oid4vp/requests", json: ["origin": "https://shop.example", "redirectUri": "https://shop.example/done"])
        #expect(dcAPI.status == 400)
        let made = try await harness.post("/v1/oid4vp/requests", json: ["flow": "cross-device", "redirectUri": "https://shop.example/done?x=1"])
        let posted = try await harness.request("POST", try await Self.responsePath(harness, made), body: Data("error=access_denied".utf8),
                                               headers: ["Content-Type": "application/x-www-form-urlencoded"], anonymous: true)
        #expect(posted.status == 200)
        let redirect = try #require(posted.json["redirect_uri"] as? String)
        #expect(redirect.hasPrefix("https://shop.example/done?x=1#response_code="))
        let code = try #require(redirect.components(separatedBy: "#response_code=").last)
        #expect(code.count == 43)
        let id = try #require(made.json["sessionId"] as? String)
        let result = try await harness.request("GET", "/v1/oid4vp/sessions/\(id)/result?response_code=\(code)")
        #expect(result.status == 422 && result.json["code"] as? String == "WALLET_DECLINED")

        // Without the code (the answer came from another browser), the presentation is refused and discarded.
        let other = try await harness.post("/v1/oid4vp/requests", json: ["flow": "cross-device", "redirectUri": "https://shop.example/done"])
        let otherId = try #require(other.json["sessionId"] as? String)
        _ = try await harness.request("POST", try await Self.responsePath(harness, other), body: Data("error=access_denied".utf8),
                                      headers: ["Content-Type": "application/x-www-form-urlencoded"], anonymous: true)
        let missing = try await harness.request("GET", "/v1/oid4vp/sessions/\(otherId)/result?response_code=wrong")
        #expect(missing.status == 403 && missing.json["code"] as? String == "RESPONSE_CODE_MISMATCH")
        #expect(try await harness.request("GET", "/v1/oid4vp/sessions/\(otherId)/result").status == 409)
        await harness.stop()
    }
}
