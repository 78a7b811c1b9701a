import Foundation
import Testing
import TestSupport
@testable import VerifierService

/// What a stranger reads agrees with what ships: the licence, the CLI section of README against the executable's own
/// subcommands, the OpenAPI version against `verifierd --version`, one scheme for problem types.
@Suite(.serialized)
struct ReleaseFactsTests {
    static let readme = (try? String(contentsOf: Fixtures.repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)) ?? ""

    @Test func theLicenceIsApache2AndSaidSo() throws {
        let licence = try String(contentsOf: Fixtures.repositoryRoot.appendingPathComponent("LICENSE"), encoding: .utf8)
        #expect(licence.contains("Apache License") && licence.contains("Version 2.0, January 2004"))
        #expect(Self.readme.contains("Apache License 2.0"))
        let document = try JSONSerialization.jsonObject(with: Data(EmbeddedAssets.openAPIDocument.utf8)) as? [String: Any]
        #expect(((document?["info"] as? [String: Any])?["license"] as? [String: Any])?["identifier"] as? String == "Apache-2.0")
    }

    /// Every subcommand `verifierd --help` lists is in README's command-line block, and every command there exists.
    @Test func theCommandLineSectionMatchesTheExecutable() throws {
        let help = try CommandLineTests.run(["--help"]).output
        let listed = Set(help.components(separatedBy: "SUBCOMMANDS:").last?.split(separator: "\n").compactMap { line -> String? in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard line.hasPrefix("  "), !line.hasPrefix("   "), let name = trimmed.split(separator: " ").first,
                  name.allSatisfy({ $0.isLowercase || $0.isNumber || $0 == "-" }) else { return nil }
            return String(name)
        } ?? [])
        #expect(listed.contains("oid4vp") && listed.contains("health"), "\(listed)")
        let operations = (try? Fixtures.documentation("docs/operations.md")) ?? ""
        let section = operations.components(separatedBy: "## Command line").last?.components(separatedBy: "```")[1] ?? ""
        let documented = Set(section.split(separator: "\n").compactMap { line -> String? in
            let words = line.split(separator: " ")
            guard words.first == "verifierd", words.count > 1, !words[1].hasPrefix("-") else { return nil }
            return String(words[1])
        })
        #expect(documented == listed.subtracting(["help"]), "README documents \(documented.sorted()), the executable has \(listed.sorted())")
    }

    @Test func theOpenAPIVersionIsTheExecutablesVersion() throws {
        let version = try CommandLineTests.run(["--version"]).output.trimmingCharacters(in: .whitespacesAndNewlines)
        let document = try JSONSerialization.jsonObject(with: Data(EmbeddedAssets.openAPIDocument.utf8)) as? [String: Any]
        let info = try #require((document?["info"] as? [String: Any])?["version"] as? String)
        #expect(version.hasPrefix("verifierd \(info) "), "\(version) vs OpenAPI \(info)")
    }

    /// 404 and 405 from the HTTP layer carry the same type scheme as the routes' problems.
    @Test func everyProblemTypeHasOneScheme() async throws {
        let harness = try ServiceHarness()
        defer { Task { await harness.stop() } }
        for (method, path, status) in [("GET", "/nope", 404), ("DELETE", "/healthz", 405), ("POST", "/v1/web/verify", 503)] {
            let answer = try await harness.request(method, path, body: method == "POST" ? Data("{}".utf8) : nil)
            #expect(answer.status == status)
            #expect((answer.json["type"] as? String)?.hasPrefix(ServiceProblem.typeBase) == true, "\(method) \(path): \(answer.json)")
        }
        await harness.stop()
    }

    /// Start-up names what an operator must not miss: no anchor, TEST-ONLY keys and tokens.
    @Test func startupWarnsOfNoAnchorsAndTestOnlyMaterial() async throws {
        let empty = try ServiceHarness(anchors: [])
        #expect(empty.service.startupWarnings().contains { $0.hasPrefix("no trusted IACA is loaded") })
        await empty.stop()
        let demo = try ServiceHarness(anchors: [ServiceHarness.pki.appendingPathComponent("iaca-p256.pem")], configure: { config in
            WebFlowTests.configure(mode: "readerAuth")(&config)
        })
        let warnings = demo.service.startupWarnings()
        #expect(!warnings.contains { $0.hasPrefix("no trusted IACA") })
        #expect(warnings.contains { $0.hasPrefix("readerAuth.signingKey is TEST-ONLY") }, "\(warnings)")
        await demo.stop()
    }
}
