import Foundation
import Testing
import TestSupport
@testable import VerifierService

/// docs/api/README.md says which `/v1/` routes need an integrator token and which a wallet calls itself, open: both
/// lists hold exactly the routes the service registers, told apart by asking each without a token (401 or not).
@Suite(.serialized)
struct RouteAccessTests {
    /// The backticked `/v1/...` paths in `text` between `start` and `end`.
    static func paths(in text: String, from start: String, to end: String) throws -> Set<String> {
        let from = try #require(text.range(of: start), "docs/api/README.md no longer says \"\(start)\"")
        let to = try #require(text.range(of: end, range: from.upperBound..<text.endIndex), "no \"\(end)\" after \"\(start)\"")
        let section = text[from.lowerBound..<to.lowerBound]
        var found: Set<String> = []
        for part in section.split(separator: "`").enumerated() where part.offset % 2 == 1 && part.element.hasPrefix("/v1/") {
            found.insert(String(part.element))
        }
        return found
    }

    @Test func theDocumentedListsAreTheRegisteredRoutes() async throws {
        let text = try String(contentsOf: Fixtures.repositoryRoot.appendingPathComponent("docs/api/README.md"), encoding: .utf8)
        let integratorRoutes = try Self.paths(in: text, from: "Every route that an integrator's backend", to: "needs an\nintegrator bearer token")
        let walletRoutes = try Self.paths(in: text, from: "The routes a wallet calls itself", to: "are open")
        #expect(integratorRoutes.count >= 14 && walletRoutes.count >= 2)

        let harness = try ServiceHarness(anchors: [ServiceHarness.pki.appendingPathComponent("iaca-p256.pem")]) { config in
            WebFlowTests.configure(mode: "readerAuth")(&config)
            config["oid4vp"] = ["allowedOrigins": WebFlowTests.origins, "publicBaseUrl": "https://verifier.example"]
            config["proximity"] = ["sessionTTLSeconds": 300]
            config["sdJwtVc"] = ["issuerDirectory": "sd-jwt-vc-issuers",
                                 "seedDirectory": SDJWTVCVectors.folder.appendingPathComponent("trusted-issuers").path]
        }
        defer { Task { await harness.stop() } }
        var needsToken: Set<String> = []
        var open: Set<String> = []
        for route in harness.service.router().routes where route.pattern.hasPrefix("/v1/")
            && !route.pattern.hasPrefix("/v1/admin/") && route.pattern != "/v1/reader-tokens"
        {
            let documented = route.pattern.split(separator: "/").map { $0.hasPrefix(":") ? "{\($0.dropFirst())}" : String($0) }
                .joined(separator: "/")
            let concrete = route.pattern.split(separator: "/").map { $0.hasPrefix(":") ? "AAAAAAAAAAAAAAAAAAAAAA" : String($0) }
                .joined(separator: "/")
            let answer = try await harness.request(route.method.rawValue, "/" + concrete,
                                                   body: route.method == .post ? Data("{}".utf8) : nil, anonymous: true)
            if answer.status == 401 { needsToken.insert("/" + documented) } else { open.insert("/" + documented) }
        }
        #expect(needsToken == integratorRoutes, "integrator routes: registered \(needsToken.sorted()), documented \(integratorRoutes.sorted())")
        #expect(open == walletRoutes, "open routes: registered \(open.sorted()), documented \(walletRoutes.sorted())")
        await harness.stop()
    }
}
