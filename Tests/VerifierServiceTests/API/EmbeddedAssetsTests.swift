import Foundation
import MDoc
import Proximity
import Testing
import TestSupport
import TrustLists
@testable import VerifierService

/// The static files are the source of what the service serves: the copies the EmbedAssets plugin compiles in match
/// them byte for byte, the routes serve them as they are, and the OpenAPI document names every error code.
struct EmbeddedAssetsTests {
    static let folder = Fixtures.repositoryRoot.appendingPathComponent("Sources/VerifierService/Assets")

    static func file(_ name: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
    }

    @Test(arguments: [
        ("openapi.json", EmbeddedAssets.openAPIDocument), ("console.html", EmbeddedAssets.consoleHTML),
        ("console.js", EmbeddedAssets.consoleScript), ("console.css", EmbeddedAssets.consoleStyle),
        ("demo.html", EmbeddedAssets.demoHTML), ("demo.js", EmbeddedAssets.demoScript), ("demo.css", EmbeddedAssets.demoStyle),
    ])
    func theEmbeddedCopyIsTheFile(name: String, embedded: String) throws {
        #expect(Array(embedded.utf8) == Array(try Self.file(name).utf8),
                "the EmbedAssets plugin's copy of Assets/\(name) differs from the file")
    }

    @Test func theRoutesServeTheFilesAsTheyAre() async throws {
        let harness = try ServiceHarness()
        defer { Task { await harness.stop() } }
        for (path, name, type) in [("/openapi.json", "openapi.json", "application/json"),
                                   ("/admin", "console.html", "text/html; charset=utf-8"),
                                   ("/admin/console.js", "console.js", "text/javascript; charset=utf-8"),
                                   ("/admin/console.css", "console.css", "text/css; charset=utf-8")] {
            let reply = try await harness.request("GET", path)
            #expect(reply.status == 200 && reply.headers["content-type"] == type, "\(path)")
            #expect(Array(reply.body) == Array(try Self.file(name).utf8), "\(path)")
        }
        await harness.stop()
    }

    /// Every code the service can answer with: the literal codes of its problems, the `<SECTION>_NOT_CONFIGURED`
    /// codes, and the codes of the libraries whose errors it passes on (VICAL, proximity, verification).
    static func serviceCodes() throws -> Set<String> {
        var codes = Set<String>()
        let sources = Fixtures.repositoryRoot.appendingPathComponent("Sources/VerifierService")
        let problem = try NSRegularExpression(pattern: #"ServiceProblem\(\.\w+,\s*"([A-Z][A-Z_]+)""#)
        let section = try NSRegularExpression(pattern: #"configured\((?:\w+\.)*\w+\??, "(\w+)"\)"#)
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        for url in files where url.pathExtension == "swift" {
            let text = try String(contentsOf: url, encoding: .utf8)
            let range = NSRange(text.startIndex..., in: text)
            for match in problem.matches(in: text, range: range) {
                codes.insert(String(text[Range(match.range(at: 1), in: text)!]))
            }
            for match in section.matches(in: text, range: range) {
                codes.insert(text[Range(match.range(at: 1), in: text)!].uppercased() + "_NOT_CONFIGURED")
            }
        }
        codes.formUnion(VICALErrorCode.allCases.map(\.rawValue))
        codes.formUnion(ProximityErrorCode.allCases.map(\.rawValue))
        codes.formUnion(VerificationCodes.all)
        return codes
    }

    @Test func everyErrorCodeIsInTheOpenAPIDocument() throws {
        let codes = try Self.serviceCodes()
        #expect(codes.count > 80, "the scan found the codes: \(codes.count)")
        #expect(codes.isSuperset(of: ["UNAUTHORIZED", "INTEGRATOR_QUOTA_EXCEEDED", "APPLE_NONCES_DISABLED", "WEB_NOT_CONFIGURED"]))
        let document = EmbeddedAssets.openAPIDocument
        let words = Set(document.split { !($0.isUppercase || $0 == "_" || $0.isNumber) }.map(String.init))
        let missing = codes.subtracting(words).sorted()
        #expect(missing.isEmpty, "not in Assets/openapi.json: \(missing)")
    }

    @Test func problemsShareOneResponseAndOneSetOfHeaders() throws {
        let document = try #require(try JSONSerialization.jsonObject(with: Data(EmbeddedAssets.openAPIDocument.utf8)) as? [String: Any])
        let components = try #require(document["components"] as? [String: Any])
        #expect((components["responses"] as? [String: Any])?["Problem"] != nil)
        #expect((components["headers"] as? [String: Any])?["X-Request-Id"] != nil)
        // No operation spells out a problem body of its own.
        let paths = try #require(document["paths"] as? [String: [String: [String: Any]]])
        for (path, operations) in paths {
            for (method, operation) in operations {
                for (status, response) in operation["responses"] as? [String: [String: Any]] ?? [:] {
                    #expect(response["$ref"] != nil || (response["content"] as? [String: Any])?["application/problem+json"] == nil,
                            "\(method) \(path) \(status) repeats the problem response")
                }
            }
        }
    }
}
