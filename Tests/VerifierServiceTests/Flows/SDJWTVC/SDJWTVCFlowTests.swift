import Crypto
import Encodings
import Foundation
import TestSupport
import StrictJSON
import Testing

/// SD-JWT VC through the service: the bare route with every generated case (each refusal with its code, revocation
/// over loopback), and the OpenID4VP Digital Credentials API route with a presentation whose KB-JWT is made here for
/// the session's nonce and origin. The independent Python wallet covers the encrypted and cross-device modes
/// (OpenID4VPWalletInteropTests).
@Suite(.serialized)
struct SDJWTVCFlowTests {
    static func harness() throws -> ServiceHarness {
        try ServiceHarness(anchors: [ServiceHarness.pki.appendingPathComponent("iaca-p256.pem")], configure: { config in
            WebFlowTests.configure(mode: "readerAuth")(&config)
            config["oid4vp"] = ["allowedOrigins": WebFlowTests.origins, "sessionTTLSeconds": 300, "allowUnencryptedResponses": true]
            config["sdJwtVc"] = ["issuerDirectory": "sd-jwt-vc-issuers",
                                 "seedDirectory": SDJWTVCVectors.folder.appendingPathComponent("trusted-issuers").path]
            config["outbound"] = ["allowedDestinations": ["127.0.0.1:\(StatusListServer.jwtPort)"]]
            config["status"] = ["allowedSchemes": ["http", "https"], "fetchTimeoutSeconds": 2]
        })
    }

    static let time = "2030-01-01T00:00:00Z"

    /// JWT VC Issuer Metadata through the service: the issuers `sdJwtVc.metadataIssuers` lists (the vectors'
    /// loopback issuers, http opened by `outbound.allowedDestinations`), every case of `TestVectors/sdjwt-metadata`
    /// on the bare route, its code, and the report naming where the key was read; an unlisted issuer is never fetched.
    @Test func listedIssuersThroughTheirMetadata() async throws {
        let listed: [[String: Any]] = SDJWTVCMetadataVectors.listed.map { issuer in
            issuer.vcts.isEmpty ? ["iss": issuer.iss] : ["iss": issuer.iss, "vcts": issuer.vcts]
        }
        let harness = try ServiceHarness(anchors: [ServiceHarness.pki.appendingPathComponent("iaca-p256.pem")], configure: { config in
            config["sdJwtVc"] = ["issuerDirectory": "sd-jwt-vc-issuers", "metadataIssuers": listed,
                                 "seedDirectory": SDJWTVCVectors.folder.appendingPathComponent("trusted-issuers").path]
            config["outbound"] = ["allowedDestinations": ["127.0.0.1:\(StatusListServer.jwtPort)"]]
            config["status"] = ["allowedSchemes": ["http", "https"], "fetchTimeoutSeconds": 2]
        })
        let server = try StatusListServer.jwtLists()
        defer { Task { await harness.stop(); await server.stop() } }
        #expect(SDJWTVCMetadataVectors.cases.count >= 16)
        for testCase in SDJWTVCMetadataVectors.cases {
            let answer = try await harness.post("/v1/sd-jwt-vc/verify", json: [
                "presentation": try testCase.presentation, "nonce": SDJWTVCVectors.manifest?["nonce"]?.string ?? "",
                "audience": SDJWTVCVectors.manifest?["audience"]?.string ?? "", "verificationTime": Self.time,
            ])
            let verified = testCase.expect["verified"]?.bool ?? false
            #expect(answer.status == (verified ? 200 : 422), "\(testCase.name): \(answer.text)")
            #expect(answer.json["code"] as? String == testCase.expect["code"]?.string, "\(testCase.name): \(answer.text)")
            let document = try #require((answer.json["documents"] as? [[String: Any]])?.first)
            let issuer = document["issuer"] as? [String: Any]
            if testCase.name == "md-x5c-control" {
                #expect(issuer?["keyId"] == nil && issuer?["metadata"] == nil && issuer?["anchor"] != nil, "\(answer.text)")
            } else if verified {
                #expect(issuer?["keyId"] as? String == "k1")
                #expect((issuer?["metadata"] as? String)?.contains("/.well-known/jwt-vc-issuer/issuers/") == true, "\(answer.text)")
                #expect(issuer?["anchor"] == nil, "no certificate chain: the key came from metadata")
            } else {
                if testCase.expect["check"]?.string == "sdjwt.issuerSignature" {
                    #expect(issuer?["keyId"] == nil && issuer?["iss"] == nil && issuer?["metadata"] == nil,
                            "nothing unsigned is named: \(answer.text)")
                }
                #expect(!answer.text.contains("Mustermann"), "\(testCase.name)")
            }
        }
        #expect(server.fetches("/.well-known/jwt-vc-issuer/issuers/unlisted") == 0)
        #expect(server.fetches("/.well-known/jwt-vc-issuer/issuers/pid") == 1, "the keys are kept: one fetch for every pid case")
        await server.stop()
        await harness.stop()
    }

    /// The bare route reaches every verdict the library does: cases without a DCQL query, each with its code.
    @Test func everyCaseThroughTheBareRoute() async throws {
        let harness = try Self.harness()
        let lists = try StatusListServer.jwtLists()
        defer { Task { await harness.stop(); await lists.stop() } }
        let cases = SDJWTVCVectors.cases.filter { $0.json["query"] == nil && $0.json["requireKeyBinding"]?.bool != false }
        #expect(cases.count >= 70)
        for testCase in cases {
            let audience = testCase.json["audience"]?.string ?? SDJWTVCVectors.manifest?["audience"]?.string ?? ""
            let answer = try await harness.post("/v1/sd-jwt-vc/verify", json: [
                "presentation": try testCase.presentation, "nonce": SDJWTVCVectors.manifest?["nonce"]?.string ?? "",
                "audience": audience, "verificationTime": Self.time,
            ])
            let verified = testCase.expect["verified"]?.bool ?? false
            #expect(answer.status == (verified ? 200 : 422), "\(testCase.name): \(answer.text)")
            #expect(answer.json["keyBindingSource"] as? String == "caller")
            #expect(answer.json["code"] as? String == testCase.expect["code"]?.string, "\(testCase.name): \(answer.text)")
            if verified {
                let document = try #require((answer.json["documents"] as? [[String: Any]])?.first)
                #expect(document["format"] as? String == "dc+sd-jwt")
                #expect(document["vct"] as? String == "urn:eudi:pid:1")
                #expect((document["claims"] as? [String: Any])?["iss"] as? String == "https://issuer.example")
            } else {
                // A refused credential never shows its claims.
                #expect(!answer.text.contains("Mustermann"), "\(testCase.name)")
            }
        }
        await lists.stop()
        await harness.stop()
    }

    /// The KB-JWT for `nonce` and `audience` over `presentation`'s issuer JWT and disclosures, signed with the TEST-ONLY
    /// holder key at 2030-01-01 (the wallet's side, written from RFC 9901 4.3).
    static func presentation(from file: SDJWTVCVectors.Case, nonce: String, audience: String) throws -> String {
        let text = try file.presentation
        let prefix = String(text[...(text.lastIndex(of: "~")!)])
        let holder = try P256.Signing.PrivateKey(pemRepresentation: try Fixtures.text(
            SDJWTVCVectors.folder.appendingPathComponent("pki/keys/holder.pem")))
        let sdHash = Base64URL.encode(Array(SHA256.hash(data: Array(prefix.utf8))))
        let header = Base64URL.encode(Array(#"{"alg":"ES256","typ":"kb+jwt"}"#.utf8))
        let payload = Base64URL.encode(Array(
            #"{"iat":1893456000,"nonce":"\#(nonce)","aud":"\#(audience)","sd_hash":"\#(sdHash)"}"#.utf8))
        let signature = try holder.signature(for: Array("\(header).\(payload)".utf8))
        return prefix + "\(header).\(payload).\(Base64URL.encode(Array(signature.rawRepresentation)))"
    }

    @Test func anOpenID4VPAnswerOverTheDigitalCredentialsAPI() async throws {
        let harness = try Self.harness()
        defer { Task { await harness.stop() } }
        let testCase = try #require(SDJWTVCVectors.cases.first { $0.name == "dcql-ok" })
        guard case .object(let raw)? = testCase.json["query"] else { Issue.record("no query"); return }
        let query = try JSONSerialization.jsonObject(with: Data(JSON(.object(raw)).text.utf8))
        let made = try await harness.post("/v1/oid4vp/requests", json: [
            "origin": "https://shop.example", "responseMode": "dc_api", "signed": false,
            "dcql_query": ["credentials": [query]],
        ])
        #expect(made.status == 201, "\(made.text)")
        let id = try #require(made.json["sessionId"] as? String)
        let data = try #require((made.json["request"] as? [String: Any])?["data"] as? [String: Any])
        let nonce = try #require(data["nonce"] as? String)
        let formats = (data["client_metadata"] as? [String: Any])?["vp_formats_supported"] as? [String: Any]
        #expect((formats?["dc+sd-jwt"] as? [String: Any])?["kb-jwt_alg_values"] as? [String] == ["ES256"])
        let presentation = try Self.presentation(from: testCase, nonce: nonce, audience: "origin:https://shop.example")
        let answer = try await harness.post("/v1/oid4vp/verify", json: [
            "sessionId": id, "response": ["vp_token": ["pid": [presentation]]], "verificationTime": Self.time,
        ])
        #expect(answer.status == 200, "\(answer.text)")
        let document = try #require((answer.json["documents"] as? [[String: Any]])?.first)
        #expect(document["format"] as? String == "dc+sd-jwt")
        #expect(answer.json["credentialIds"] as? [String] == ["pid"])
        let claims = try #require(document["claims"] as? [String: Any])
        #expect(Set(claims.keys) == ["given_name", "family_name", "address"])
        #expect((document["keyBinding"] as? [String: Any])?["audience"] as? String == "origin:https://shop.example")
        // The session is used once.
        let again = try await harness.post("/v1/oid4vp/verify", json: [
            "sessionId": id, "response": ["vp_token": ["pid": [presentation]]], "verificationTime": Self.time,
        ])
        #expect(again.status == 409 || again.status == 410, "\(again.text)")
        await harness.stop()
    }

    /// The audience is the origin over the DC API: a KB-JWT for another origin, or for the session with another
    /// nonce, is refused; so is an answer disclosing what the query did not ask for (its value never returned).
    @Test func refusalsOverTheDigitalCredentialsAPI() async throws {
        let harness = try Self.harness()
        defer { Task { await harness.stop() } }
        let ok = try #require(SDJWTVCVectors.cases.first { $0.name == "dcql-ok" })
        let full = try #require(SDJWTVCVectors.cases.first { $0.name == "valid" })
        guard case .object(let raw)? = ok.json["query"] else { Issue.record("no query"); return }
        let query = try JSONSerialization.jsonObject(with: Data(JSON(.object(raw)).text.utf8))
        let attempts: [(SDJWTVCVectors.Case, String?, String?, String)] = [
            (ok, "origin:https://other.example", nil, "SDJWT_KB_AUDIENCE_MISMATCH"),
            (ok, "origin:https://shop.example/", nil, "SDJWT_KB_AUDIENCE_MISMATCH"),
            (ok, nil, "another-nonce", "SDJWT_KB_NONCE_MISMATCH"),
            (full, nil, nil, "ELEMENT_NOT_REQUESTED"),
        ]
        for (testCase, audience, nonceOverride, code) in attempts {
            let made = try await harness.post("/v1/oid4vp/requests", json: [
                "origin": "https://shop.example", "responseMode": "dc_api", "signed": false, "dcql_query": ["credentials": [query]],
            ])
            let id = try #require(made.json["sessionId"] as? String)
            let nonce = try #require(((made.json["request"] as? [String: Any])?["data"] as? [String: Any])?["nonce"] as? String)
            let presentation = try Self.presentation(from: testCase, nonce: nonceOverride ?? nonce,
                                                     audience: audience ?? "origin:https://shop.example")
            let answer = try await harness.post("/v1/oid4vp/verify", json: [
                "sessionId": id, "response": ["vp_token": ["pid": [presentation]]], "verificationTime": Self.time,
            ])
            #expect(answer.status == 422, "\(code): \(answer.text)")
            #expect(answer.json["code"] as? String == code, "\(answer.text)")
            #expect(!answer.text.contains("1964-08-12"))
        }
        await harness.stop()
    }

    /// `vctValues` on the bare route restricts the type only: every claim is still reported; another type is refused.
    /// A payload whose signature does not verify never has its `vct` or `iss` echoed.
    @Test func theBareRouteRestrictsTypesNotClaims() async throws {
        let harness = try Self.harness()
        defer { Task { await harness.stop() } }
        let valid = try #require(SDJWTVCVectors.cases.first { $0.name == "valid" })
        var body: [String: Any] = [
            "presentation": try valid.presentation, "nonce": SDJWTVCVectors.manifest?["nonce"]?.string ?? "",
            "audience": SDJWTVCVectors.manifest?["audience"]?.string ?? "", "verificationTime": Self.time,
            "vctValues": ["urn:eudi:pid:1"],
        ]
        let accepted = try await harness.post("/v1/sd-jwt-vc/verify", json: body)
        #expect(accepted.status == 200, "\(accepted.text)")
        let claims = ((accepted.json["documents"] as? [[String: Any]])?.first?["claims"] as? [String: Any]) ?? [:]
        #expect(claims["birthdate"] as? String == "1964-08-12" && claims["given_name"] as? String == "Erika")
        body["vctValues"] = ["urn:other:1"]
        let refused = try await harness.post("/v1/sd-jwt-vc/verify", json: body)
        #expect(refused.status == 422 && refused.json["code"] as? String == "SDJWT_VCT_NOT_REQUESTED", "\(refused.text)")
        let forged = try #require(SDJWTVCVectors.cases.first { $0.name == "bad-signature" })
        body["presentation"] = try forged.presentation
        body["vctValues"] = nil
        let unsigned = try await harness.post("/v1/sd-jwt-vc/verify", json: body)
        #expect(unsigned.status == 422)
        let document = try #require((unsigned.json["documents"] as? [[String: Any]])?.first)
        #expect(document["vct"] == nil && (document["issuer"] as? [String: Any])?["iss"] == nil, "\(unsigned.text)")
        await harness.stop()
    }

    /// Without the `sdJwtVc` section, SD-JWT VC queries are refused when the request is made.
    @Test func unconfiguredServicesRefuseSDJWTVCQueries() async throws {
        let harness = try OpenID4VPFlowTests.harness()
        defer { Task { await harness.stop() } }
        let made = try await harness.post("/v1/oid4vp/requests", json: [
            "origin": "https://shop.example",
            "dcql_query": ["credentials": [["id": "pid", "format": "dc+sd-jwt", "meta": ["vct_values": ["urn:eudi:pid:1"]]]]],
        ])
        #expect(made.status == 400)
        #expect((made.json["detail"] as? String)?.contains("sdJwtVc") == true)
        let bare = try await harness.post("/v1/sd-jwt-vc/verify", json: ["presentation": "x~", "nonce": "n", "audience": "a"])
        #expect(bare.status == 503)
        await harness.stop()
    }
}
