import Foundation
import Testing
import TestSupport
@testable import VerifierConfiguration
@testable import VerifierService

/// The example configurations in `config/examples/` load with the service's own loader, say what their notes say,
/// and the container example's TEST-ONLY files stay copies of the demo's.
struct ExampleConfigurationTests {
    static let examples = Fixtures.repositoryRoot.appendingPathComponent("config/examples")

    @Test func theProductionExampleLoadsWithNothingTestOnly() throws {
        // The secret files it names live under /run/secrets in production; here the environment points them at
        // files of the test's, as an operator may.
        let secrets = FileManager.default.temporaryDirectory.appendingPathComponent("verifierd-secrets-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: secrets, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: secrets) }
        try Data("0123456789abcdef0123456789abcdef\n".utf8).write(to: secrets.appendingPathComponent("admin"))
        try Data("shop=integrator-token-0123456789\n".utf8).write(to: secrets.appendingPathComponent("integrators"))
        let configuration = try ConfigurationLoader.load(
            file: Self.examples.appendingPathComponent("production.json"),
            environment: ["VERIFIERD_ADMIN_TOKEN_FILE": secrets.appendingPathComponent("admin").path,
                          "VERIFIERD_INTEGRATORS_TOKENS_FILE": secrets.appendingPathComponent("integrators").path])
        #expect(configuration.admin.token != nil)
        #expect(configuration.server.tls != nil && configuration.server.plainHealthPort == 9090)
        #expect(!configuration.verification.allowVerificationTimeOverride)
        #expect(configuration.trust.profileChecks == .enforce)
        #expect(configuration.apple?.requireIssuedNonce == true)
        #expect(configuration.integrators.requireToken)
        // Every path is absolute: the binary can start from any working directory.
        let paths = [configuration.trust.iacaDirectory] + (configuration.apple?.encryptionKeys ?? [])
            + Array(configuration.trust.vicalSigners.values)
        #expect(paths.allSatisfy { $0.path.hasPrefix("/etc/verifierd/") || $0.path.hasPrefix("/var/lib/verifierd/") })
        // The annotated notes name every top-level section the file uses.
        let notes = try String(contentsOf: Self.examples.appendingPathComponent("README.md"), encoding: .utf8)
        let json = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: Self.examples.appendingPathComponent("production.json"))) as? [String: Any])
        for (section, value) in json {
            for key in (value as? [String: Any] ?? [:]).keys {
                #expect(notes.contains("`\(section).\(key)") || notes.contains("`\(key)`") || notes.contains("`\(section).*`"),
                        "\(section).\(key) is not annotated")
            }
        }
    }

    @Test func theContainerExampleServesTheDemoWithTheDemosFiles() throws {
        let folder = Self.examples.appendingPathComponent("container")
        let configuration = try ConfigurationLoader.load(file: folder.appendingPathComponent("verifierd.json"),
                                                         environment: [:])
        #expect(configuration.server.host == "0.0.0.0" && configuration.server.port == 8080)
        #expect(configuration.apple?.encryptionKeys.map(\.path) == ["/etc/verifierd/keys/merchant-encryption.pem"])
        #expect(configuration.trust.seedDirectory?.path == "/etc/verifierd/trusted-iaca")
        #expect(configuration.trust.iacaDirectory.path == "/var/lib/verifierd/trusted-iaca")
        let demo = Fixtures.testVectors.appendingPathComponent("demo")
        for (copy, original) in [("keys/merchant-encryption.pem", "keys/merchant-encryption.pem"),
                                 ("trusted-iaca/demo-iaca.pem", "trusted-iaca/demo-iaca.pem")] {
            let a = try Data(contentsOf: folder.appendingPathComponent(copy))
            let b = try Data(contentsOf: demo.appendingPathComponent(original))
            #expect(a == b, "\(copy) differs from TestVectors/demo/\(original)")
        }
    }
}
