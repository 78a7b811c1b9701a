import Foundation
import Testing
@testable import VerifierConfiguration
@testable import VerifierService

/// The `integrators` section: tokens from the file, a secret file or the environment, and what is refused.
struct IntegratorConfigurationTests {
    let helper = ConfigurationTests()

    @Test func tokensComeFromTheFileASecretFileAndTheEnvironment() throws {
        let file = try helper.write(#"""
            {"trust": {"iacaDirectory": "trust"}, "integrators": {"tokens": {"shop": "shop-token-0123456789"},
             "tokensFile": "integrators.secret", "maxSessionsPerIntegrator": 50}}
            """#, files: ["integrators.secret": "kiosk = kiosk-token-0123456789\n\ndoor-1=door-token-0123456789\n"])
        let configuration = try ConfigurationLoader.load(file: file, environment: [:])
        #expect(configuration.integrators.tokens == ["shop": "shop-token-0123456789", "kiosk": "kiosk-token-0123456789",
                                                     "door-1": "door-token-0123456789"])
        #expect(configuration.integrators.requireToken)
        #expect(configuration.integrators.maxSessionsPerIntegrator == 50)
        let fromEnvironment = try ConfigurationLoader.load(file: try helper.write(#"{"trust": {"iacaDirectory": "trust"}}"#),
            environment: ["VERIFIERD_INTEGRATORS_TOKENS": "a=aaaaaaaaaaaaaaaa,b=bbbbbbbbbbbbbbbb",
                          "VERIFIERD_INTEGRATORS_REQUIRE_TOKEN": "false"])
        #expect(fromEnvironment.integrators.tokens == ["a": "aaaaaaaaaaaaaaaa", "b": "bbbbbbbbbbbbbbbb"])
        #expect(!fromEnvironment.integrators.requireToken)
        // Without the section: tokens required, none configured (every flow route answers 401 until some are).
        let none = try ConfigurationLoader.load(file: try helper.write(#"{"trust": {"iacaDirectory": "trust"}}"#), environment: [:])
        #expect(none.integrators.requireToken && none.integrators.tokens.isEmpty)
    }

    @Test(arguments: [
        (#"{"tokens": {"Shop": "shop-token-0123456789"}}"#, "integrators.tokens.Shop"),
        (#"{"tokens": {"anonymous": "shop-token-0123456789"}}"#, "integrators.tokens.anonymous"),
        (#"{"tokens": {"shop": "short"}}"#, "integrators.tokens.shop"),
        (#"{"tokens": {"a": "same-token-0123456789", "b": "same-token-0123456789"}}"#, "integrators.tokens.b"),
        (#"{"tokens": {"shop": 12}}"#, "integrators.tokens.shop"),
        (#"{"maxSessionsPerIntegrator": 0}"#, "integrators.maxSessionsPerIntegrator"),
        (#"{"requireTokens": false}"#, "integrators.requireTokens"),
        (#"{"tokensFile": "missing.secret"}"#, "integrators.tokensFile"),
    ])
    func mistakesAreRefusedByName(section: String, key: String) throws {
        let error = try helper.error(#"{"trust": {"iacaDirectory": "trust"}, "integrators": \#(section)}"#)
        #expect(error?.key == key, "\(String(describing: error))")
    }

    @Test func aSecretFileLineThatIsNotNameEqualsTokenIsRefused() throws {
        let error = try helper.error(#"{"trust": {"iacaDirectory": "trust"}, "integrators": {"tokensFile": "s"}}"#,
                                     files: ["s": "just-a-token-0123456789\n"])
        #expect(error?.key == "integrators.tokensFile" && error?.reason.contains("line 1") == true, "\(String(describing: error))")
        #expect(error?.description.contains("just-a-token") == false, "a secret never appears in an error")
    }
}
