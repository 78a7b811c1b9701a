import Foundation
import SessionStore
import Testing
import TestSupport
@testable import VerifierConfiguration
@testable import VerifierService

/// The demo page (`demo` section): `GET /demo` and its files, and the two open routes that run the presentation flow
/// (`/v1/presentations/...`: one request over every protocol allowed, one answer in any of them) as the configured
/// integrator for the page's own origin. Without the section none of them exists.
@Suite(.serialized)
struct DemoPageTests {
    static let demoToken = "demo-integrator-token-for-tests"

    /// A service with the web and OpenID4VP flows, reader authentication and (unless `demo` is nil) the demo section,
    /// listening on a port chosen first so that its own origin, `http://127.0.0.1:<port>`, can be among `origins`.
    /// `origins` are both `web.allowedOrigins` and `oid4vp.allowedOrigins`, so the page is offered both protocols.
    static func harness(origins: ((Int) -> [String])? = nil, demo: [String: Any]? = ["integrator": "demo"]) throws -> ServiceHarness {
        var failure: (any Error)?
        for _ in 0..<3 {  // another process may take the chosen port before the service binds it
            let port = PostgresTestCluster.freePort()
            do {
                return try ServiceHarness(anchors: [ServiceHarness.pki.appendingPathComponent("iaca-p256.pem")]) { config in
                    WebFlowTests.configure(mode: "readerAuth")(&config)
                    config["server"] = ["host": "127.0.0.1", "port": port]
                    config["integrators"] = ["tokens": [ServiceHarness.integratorName: ServiceHarness.integratorToken,
                                                        "demo": demoToken]]
                    let allowed = origins?(port) ?? ["http://127.0.0.1:\(port)", "https://shop.example"]
                    config["web"] = ["allowedOrigins": allowed]
                    config["oid4vp"] = ["allowedOrigins": allowed]
                    if let demo { config["demo"] = demo }
                }
            } catch {
                failure = error
            }
        }
        throw failure!
    }

    @Test func withoutTheSectionTheRoutesDoNotExist() async throws {
        for demo in [nil, ["enabled": false, "integrator": "demo"]] as [[String: Any]?] {
            let harness = try Self.harness(demo: demo)
            defer { Task { await harness.stop() } }
            #expect(harness.service.configuration.demo == nil)
            for path in ["/demo", "/demo/demo.js", "/demo/demo.css"] {
                #expect(try await harness.request("GET", path, anonymous: true).status == 404, "\(path)")
            }
            for path in ["/demo/requests", "/demo/verify"] {
                let answer = try await harness.request("POST", path, body: Data("{}".utf8), anonymous: true)
                #expect(answer.status == 404 && answer.json["code"] as? String == "NOT_FOUND", "\(path): \(answer.text)")
            }
            #expect(!harness.service.startupWarnings().contains { $0.contains("demo page") })
            await harness.stop()
        }
    }

    @Test func theSectionIsChecked() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("verifierd-demo-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func load(_ sections: String, environment: [String: String] = [:]) throws -> ServiceConfiguration {
            let file = folder.appendingPathComponent("c-\(UUID().uuidString.prefix(6)).json")
            try Data(#"{"trust": {"iacaDirectory": "trust"}, "integrators": {"tokens": {"demo": "\#(Self.demoToken)"}}, \#(sections)}"#.utf8)
                .write(to: file)
            return try ConfigurationLoader.load(file: file, environment: environment)
        }
        func key(_ sections: String) -> String? {
            do { _ = try load(sections); return nil } catch let error as ConfigurationError { return error.key } catch { return "\(error)" }
        }
        let web = #""web": {"allowedOrigins": ["http://localhost:8080"]}"#
        #expect(try load("\(web), \"demo\": {\"integrator\": \"demo\"}").demo?.integrator == "demo")
        #expect(try load("\(web), \"demo\": {\"enabled\": false, \"integrator\": \"demo\"}").demo == nil)
        #expect(try load("\(web), \"demo\": {\"integrator\": \"demo\"}", environment: ["VERIFIERD_DEMO_ENABLED": "false"]).demo == nil)
        #expect(key("\(web), \"demo\": {\"integrator\": \"shop\"}") == "demo.integrator")
        #expect(key("\(web), \"demo\": {}") == "demo.integrator")
        #expect(key("\(web), \"demo\": {\"integrator\": \"demo\", \"token\": \"x\"}") == "demo.token")
        #expect(key("\"demo\": {\"integrator\": \"demo\"}") == "demo", "the page needs the web flow")
        // The demo configuration has it; it is the only one.
        let demo = try ConfigurationLoader.load(file: Fixtures.repositoryRoot.appendingPathComponent("config/verifierd.json"),
                                                environment: [:])
        #expect(demo.demo?.integrator == "demo")
        #expect(demo.web?.allowedOrigins.map(\.text).contains("http://localhost:8080") == true)
        #expect(demo.oid4vp?.allowedOrigins.contains("http://localhost:8080") == true, "its page is offered OpenID4VP too")
    }

    @Test func thePageIsServedWithAStrictPolicyAndHoldsNoSecret() async throws {
        let harness = try Self.harness()
        defer { Task { await harness.stop() } }
        for (path, type, text) in [("/demo", "text/html", EmbeddedAssets.demoHTML), ("/demo/demo.js", "text/javascript", EmbeddedAssets.demoScript),
                                   ("/demo/demo.css", "text/css", EmbeddedAssets.demoStyle)] {
            let answer = try await harness.request("GET", path, anonymous: true)
            #expect(answer.status == 200 && answer.headers["content-type"]?.hasPrefix(type) == true, "\(path)")
            #expect(Array(answer.body) == Array(text.utf8), "\(path) is the embedded file")
            let csp = try #require(answer.headers["content-security-policy"])
            #expect(csp.contains("default-src 'none'") && csp.contains("script-src 'self'") && csp.contains("connect-src 'self'")
                    && !csp.contains("unsafe"))
            #expect(answer.headers["x-content-type-options"] == "nosniff")
        }
        let page = EmbeddedAssets.demoHTML
        #expect(!page.contains("<script>") && !page.contains("style=") && page.range(of: #"\son[a-z]+="#, options: .regularExpression) == nil,
                "no inline code")
        #expect(page.contains("Request a mobile driving licence"))
        let everything = page + EmbeddedAssets.demoScript
        #expect(!everything.contains(Self.demoToken) && !everything.contains("Authorization"), "the page holds no token")
        // verifierd's "digital" object goes to the browser unchanged, and the DigitalCredential comes back as received.
        #expect(EmbeddedAssets.demoScript.contains("digital: made.json.digital"))
        #expect(EmbeddedAssets.demoScript.contains("credential: {protocol: credential.protocol, data: credential.data}"))
        #expect(harness.service.startupWarnings().contains { $0.hasPrefix("the demo page is on") && $0.contains("integrator demo") })
        // Every demo route is in the OpenAPI document.
        let document = try JSONSerialization.jsonObject(with: Data(EmbeddedAssets.openAPIDocument.utf8)) as? [String: Any]
        let paths = try #require(document?["paths"] as? [String: [String: Any]])
        let demoRoutes = harness.service.router().routes.filter { $0.pattern.hasPrefix("/demo") }
        #expect(demoRoutes.count == 5)
        for route in demoRoutes {
            #expect(paths[route.pattern]?[route.method.rawValue.lowercased()] != nil, "\(route) is not in the OpenAPI document")
        }
        await harness.stop()
    }

    @Test func requestsAreForThePagesOwnOriginAndTheDemoIntegrator() async throws {
        let harness = try Self.harness()
        defer { Task { await harness.stop() } }
        let own = "http://127.0.0.1:\(harness.server.port)"
        // Without a token; with the page's Origin, or none (the Host and this listener's scheme).
        for origin in [own, nil] {
            let made = try await harness.request("POST", "/demo/requests", body: Data("{}".utf8),
                                                 headers: origin.map { ["Origin": $0] } ?? [:], anonymous: true)
            #expect(made.status == 201, "\(made.text)")
            // Both protocols, in the default order, each for this origin.
            let requests = (made.json["digital"] as? [String: Any])?["requests"] as? [[String: Any]] ?? []
            #expect(requests.map { $0["protocol"] as? String } == ["openid4vp-v1-signed", "org-iso-mdoc"], "\(made.text)")
            #expect(made.json["protocols"] as? [String] == ["openid4vp-v1-signed", "org-iso-mdoc"], "\(made.text)")
            let signed = try #require((requests.first?["data"] as? [String: Any])?["request"] as? String)
            #expect(try OpenID4VPFlowTests.payload(ofJWS: signed)["expected_origins"] as? [String] == [own])
        }
        #expect(try await harness.request("POST", "/demo/requests", anonymous: true).status == 201, "an empty body is {}")
        // Another origin, even an allowed one, is not this page's: the Origin must name the Host the request came to.
        for origin in ["https://shop.example", "http://localhost:\(harness.server.port)", "http://evil.example", "null", own + "/"] {
            let refused = try await harness.request("POST", "/demo/requests", body: Data("{}".utf8), headers: ["Origin": origin],
                                                    anonymous: true)
            #expect(refused.status == 400 && refused.json["code"] as? String == "ORIGIN_NOT_ALLOWED", "\(origin): \(refused.text)")
        }
        // The body never names the origin.
        let named = try await harness.request("POST", "/demo/requests", body: Data(#"{"origin": "https://shop.example"}"#.utf8),
                                              anonymous: true)
        #expect(named.status == 400 && named.json["code"] as? String == "INVALID_REQUEST", "\(named.text)")

        // The session is the demo integrator's: another integrator cannot use it, /demo/verify can, once.
        let made = try await harness.request("POST", "/demo/requests", body: Data("{}".utf8), anonymous: true)
        let id = try #require(made.json["sessionId"] as? String)
        #expect(await harness.service.sessionStore.presence(id: id, kind: "dc-presentation", owner: "demo",
                                                            now: TestClock.date("2030-01-01T00:00:00Z")) == .open)
        let credential: [String: Any] = ["protocol": "org-iso-mdoc", "data": ["response": "AAAA"]]
        let other = try await harness.post("/v1/presentations/verify", json: ["sessionId": id, "credential": credential])
        #expect(other.status == 404 && other.json["code"] as? String == "SESSION_NOT_FOUND", "\(other.text)")
        let withTime: [String: Any] = ["sessionId": id, "credential": credential, "verificationTime": "2030-01-01T00:00:00Z"]
        let extra = try await harness.request("POST", "/demo/verify", body: try JSONSerialization.data(withJSONObject: withTime),
                                              anonymous: true)
        #expect(extra.status == 400 && extra.json["code"] as? String == "INVALID_REQUEST", "no clock override: \(extra.text)")
        let answer: [String: Any] = ["sessionId": id, "credential": credential]
        let body = try JSONSerialization.data(withJSONObject: answer)
        let first = try await harness.request("POST", "/demo/verify", body: body, anonymous: true)
        #expect([400, 422].contains(first.status) && first.json["verified"] as? Bool != true, "\(first.text)")
        let second = try await harness.request("POST", "/demo/verify", body: body, anonymous: true)
        #expect(second.status == 409 && second.json["code"] as? String == "SESSION_ALREADY_USED", "\(second.text)")
        // An answer in a protocol the session did not offer is refused, and uses the session up all the same.
        let fresh = try await harness.request("POST", "/demo/requests", body: Data("{}".utf8), anonymous: true)
        let unoffered = try #require(fresh.json["sessionId"] as? String)
        let unsigned: [String: Any] = ["protocol": "openid4vp-v1-unsigned", "data": ["response": "AAAA"]]
        let unsignedAnswer: [String: Any] = ["sessionId": unoffered, "credential": unsigned]
        let refused = try await harness.request("POST", "/demo/verify", body: try JSONSerialization.data(withJSONObject: unsignedAnswer),
                                                anonymous: true)
        #expect(refused.status == 400 && refused.json["code"] as? String == "PROTOCOL_NOT_OFFERED", "\(refused.text)")
        let annexCAnswer: [String: Any] = ["sessionId": unoffered, "credential": credential]
        let after = try await harness.request("POST", "/demo/verify", body: try JSONSerialization.data(withJSONObject: annexCAnswer),
                                              anonymous: true)
        #expect(after.status == 409 && after.json["code"] as? String == "SESSION_ALREADY_USED", "\(after.text)")
        // Logged and counted as the demo integrator.
        let lines = harness.logs.all.filter { $0.contains("\"route\":\"/demo/requests\"") }
        #expect(lines.contains { $0.contains("\"integrator\":\"demo\"") && $0.contains("\"status\":201") })
        await harness.stop()
    }

    @Test func anOriginOutsideWebAllowedOriginsIsRefused() async throws {
        let harness = try Self.harness(origins: { _ in ["https://shop.example"] })
        defer { Task { await harness.stop() } }
        let own = "http://127.0.0.1:\(harness.server.port)"
        for headers in [[:], ["Origin": own]] {
            let refused = try await harness.request("POST", "/demo/requests", body: Data("{}".utf8), headers: headers, anonymous: true)
            #expect(refused.status == 400 && refused.json["code"] as? String == "ORIGIN_NOT_ALLOWED", "\(refused.text)")
            #expect((refused.json["detail"] as? String)?.contains("web.allowedOrigins") == true, "\(refused.text)")
        }
        // The page itself is still served: it says what went wrong when its request is refused.
        #expect(try await harness.request("GET", "/demo", anonymous: true).status == 200)
        await harness.stop()
    }
}
