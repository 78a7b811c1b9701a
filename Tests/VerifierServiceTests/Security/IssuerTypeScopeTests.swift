import Foundation
import TestSupport
import Testing

/// An SD-JWT VC issuer is trusted for the types its operator scoped it to, and an `aka_vcts` alias it chose itself
/// never widens that scope: a credential of an issuer scoped to `urn:eudi:pid:de:1` that names `urn:eudi:pid:1` as
/// an alias does not answer a request for `urn:eudi:pid:1` unless the issuer is trusted for that type too. Through
/// the service, on the bare route (`vctValues`) and over OpenID4VP (DCQL `vct_values`), with the generated case
/// `aka-vcts-match` (vct urn:eudi:pid:de:1, aka_vcts ["urn:eudi:pid:1"]) under the anchor scoped one way, then the other.
@Suite(.serialized)
struct IssuerTypeScopeTests {
    static let anchor = SDJWTVCVectors.folder.appendingPathComponent("pki/issuer-ca.pem")
    static let nationalType = "urn:eudi:pid:de:1"
    static let requestedType = "urn:eudi:pid:1"

    static func harness() throws -> ServiceHarness {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("no-issuers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        return try ServiceHarness(anchors: [ServiceHarness.pki.appendingPathComponent("iaca-p256.pem")], configure: { config in
            WebFlowTests.configure(mode: "readerAuth")(&config)
            config["oid4vp"] = ["allowedOrigins": WebFlowTests.origins, "sessionTTLSeconds": 300, "allowUnencryptedResponses": true]
            config["sdJwtVc"] = ["issuerDirectory": "sd-jwt-vc-issuers", "seedDirectory": empty.path]
            config["status"] = ["mode": "off"]
        })
    }

    /// Replaces the SD-JWT VC issuer set with the test issuer CA scoped to `types`.
    static func scope(_ harness: ServiceHarness, to types: [String]) async throws {
        let scope = types.joined(separator: ",").addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        let replaced = try await harness.admin("PUT", "/v1/admin/sd-jwt-vc-issuers?docType=\(scope)", body: try Data(contentsOf: anchor))
        #expect(replaced.status == 200, "\(replaced.text.prefix(300))")
    }

    static func bareRoute(_ harness: ServiceHarness) async throws -> ServiceHarness.Response {
        let testCase = try #require(SDJWTVCVectors.cases.first { $0.name == "aka-vcts-match" })
        return try await harness.post("/v1/sd-jwt-vc/verify", json: [
            "presentation": try testCase.presentation, "nonce": SDJWTVCVectors.manifest?["nonce"]?.string ?? "",
            "audience": SDJWTVCVectors.manifest?["audience"]?.string ?? "", "vctValues": [requestedType],
            "verificationTime": SDJWTVCFlowTests.time,
        ])
    }

    /// The same credential answering an OpenID4VP request (Digital Credentials API, unencrypted) whose DCQL asks only
    /// for `urn:eudi:pid:1`.
    static func overOpenID4VP(_ harness: ServiceHarness) async throws -> ServiceHarness.Response {
        let origin = WebFlowTests.origins[0]
        let query: [String: Any] = ["credentials": [["id": "pid", "format": "dc+sd-jwt",
                                                     "meta": ["vct_values": [requestedType]], "claims": [["path": ["given_name"]]]]]]
        let made = try await harness.post("/v1/oid4vp/requests", json: ["origin": origin, "dcql_query": query, "signed": false,
                                                                       "responseMode": "dc_api"])
        #expect(made.status == 201, "\(made.text.prefix(300))")
        let sessionId = try #require(made.json["sessionId"] as? String)
        let data = try #require((made.json["request"] as? [String: Any])?["data"] as? [String: Any])
        let nonce = try #require(data["nonce"] as? String)
        let testCase = try #require(SDJWTVCVectors.cases.first { $0.name == "aka-vcts-match" })
        let presentation = try SDJWTVCFlowTests.presentation(from: testCase, nonce: nonce, audience: "origin:\(origin)")
        return try await harness.post("/v1/oid4vp/verify", json: [
            "sessionId": sessionId, "response": ["vp_token": ["pid": [presentation]]], "verificationTime": SDJWTVCFlowTests.time,
        ])
    }

    static func requestClaims(_ response: ServiceHarness.Response) -> [String: Any]? {
        let document = (response.json["documents"] as? [[String: Any]])?.first
        return (document?["checks"] as? [[String: Any]])?.first { $0["id"] as? String == "request.claims" }
    }

    @Test func anAliasTheIssuerChoseDoesNotWidenItsScope() async throws {
        let harness = try Self.harness()
        defer { Task { await harness.stop() } }

        // Scoped to the national type only: the alias names a type the issuer is not trusted for.
        try await Self.scope(harness, to: [Self.nationalType])
        for (route, response) in [("bare", try await Self.bareRoute(harness)), ("openid4vp", try await Self.overOpenID4VP(harness))] {
            #expect(response.status == 422, "\(route): \(response.text.prefix(600))")
            #expect(response.json["code"] as? String == "ISSUER_NOT_AUTHORIZED_FOR_VCT", "\(route): \(response.text.prefix(600))")
            #expect(Self.requestClaims(response)?["outcome"] as? String == "failed", "\(route)")
            #expect(Self.requestClaims(response)?["code"] as? String == "ISSUER_NOT_AUTHORIZED_FOR_VCT", "\(route)")
            #expect(!response.text.contains("Erika"), "\(route): no claim of a credential that failed")
        }

        // Trusted for both types: the alias may then answer the request.
        try await Self.scope(harness, to: [Self.nationalType, Self.requestedType])
        for (route, response) in [("bare", try await Self.bareRoute(harness)), ("openid4vp", try await Self.overOpenID4VP(harness))] {
            #expect(response.status == 200, "\(route): \(response.text.prefix(600))")
            #expect(Self.requestClaims(response)?["outcome"] as? String == "passed", "\(route)")
        }

        // Trusted for the requested type only: the credential's own vct is out of scope (the chain check refuses it).
        try await Self.scope(harness, to: [Self.requestedType])
        let own = try await Self.bareRoute(harness)
        #expect(own.status == 422 && own.json["code"] as? String == "ISSUER_NOT_AUTHORIZED_FOR_VCT", "\(own.text.prefix(600))")
        await harness.stop()
    }
}
