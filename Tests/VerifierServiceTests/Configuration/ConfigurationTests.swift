import Foundation
import SDJWTVC
import Testing
import TestSupport
@testable import VerifierConfiguration
@testable import VerifierService

/// Loading, overriding and rejecting configuration.
struct ConfigurationTests {
    func write(_ json: String, files: [String: String] = [:]) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("verifierd-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("trust"), withIntermediateDirectories: true)
        for (name, text) in files { try Data(text.utf8).write(to: folder.appendingPathComponent(name)) }
        let file = folder.appendingPathComponent("config.json")
        try Data(json.utf8).write(to: file)
        return file
    }

    func error(_ json: String, environment: [String: String] = [:], files: [String: String] = [:]) throws -> ConfigurationError? {
        let file = try write(json, files: files)
        do {
            _ = try ConfigurationLoader.load(file: file, environment: environment)
            return nil
        } catch {
            return error
        }
    }

    @Test func environmentNames() {
        #expect(ConfigurationLoader.environmentName("server", "port") == "VERIFIERD_SERVER_PORT")
        #expect(ConfigurationLoader.environmentName("admin", "token") == "VERIFIERD_ADMIN_TOKEN")
        #expect(ConfigurationLoader.environmentName("readerTokens", "clientTokens") == "VERIFIERD_READER_TOKENS_CLIENT_TOKENS")
        #expect(ConfigurationLoader.environmentName("trust", "iacaDirectory") == "VERIFIERD_TRUST_IACA_DIRECTORY")
        #expect(ConfigurationLoader.environmentName("web", "sessionTTLSeconds") == "VERIFIERD_WEB_SESSION_TTL_SECONDS")
        #expect(ConfigurationLoader.environmentName("apple", "nonceTTLSeconds") == "VERIFIERD_APPLE_NONCE_TTL_SECONDS")
        #expect(ConfigurationLoader.environmentName("server.tls", "clientCA") == "VERIFIERD_SERVER_TLS_CLIENT_CA")
    }

    @Test func defaultsOverridesSecretsAndRelativePaths() throws {
        let file = try write(#"{"trust": {"iacaDirectory": "trust"}, "admin": {"tokenFile": "admin.secret"}}"#,
                             files: ["admin.secret": "from-a-file-0123456789\n", "clients": "a\nb\n"])
        let configuration = try ConfigurationLoader.load(file: file, environment: [
            "VERIFIERD_SERVER_PORT": "9090", "VERIFIERD_VERIFICATION_ALLOW_VERIFICATION_TIME_OVERRIDE": "true",
            "VERIFIERD_READER_TOKENS_BRAND_ID": "B", "VERIFIERD_READER_TOKENS_KEY_ID": "K",
            "VERIFIERD_READER_TOKENS_SIGNING_KEY": "key.pem", "VERIFIERD_READER_TOKENS_CLIENT_TOKENS_FILE": "clients",
        ])
        #expect(configuration.server.port == 9090)
        #expect(configuration.server.host == "127.0.0.1")
        #expect(configuration.verification.allowVerificationTimeOverride)
        #expect(configuration.verification.clockSkewSeconds == 300)
        #expect(configuration.admin.token == "from-a-file-0123456789")
        #expect(configuration.readerTokens?.clientTokens == ["a", "b"])
        #expect(configuration.readerTokens?.lifetimeSeconds == 300)
        let folder = file.deletingLastPathComponent().standardizedFileURL.path
        #expect(configuration.trust.iacaDirectory.path == folder + "/trust")
        #expect(configuration.readerTokens?.signingKey.path == folder + "/key.pem")
        #expect(configuration.apple == nil)
        // The environment wins over the file.
        let overridden = try ConfigurationLoader.load(file: file, environment: ["VERIFIERD_ADMIN_TOKEN": "from-the-environment-0123"])
        #expect(overridden.admin.token == "from-the-environment-0123")
    }

    @Test func errorsNameTheKey() throws {
        let trust = #""trust": {"iacaDirectory": "trust"}"#
        let cases: [(String, [String: String], String)] = [
            ("{\(trust), \"server\": {\"prot\": 1}}", [:], "server.prot"),
            ("{\(trust), \"sever\": {}}", [:], "sever"),
            ("{\(trust), \"server\": {\"port\": \"80\"}}", [:], "server.port"),
            ("{\(trust)}", ["VERIFIERD_SERVER_PORT": "x"], "server.port"),
            ("{\(trust), \"server\": {\"port\": 70000}}", [:], "server.port"),
            ("{}", [:], "trust.iacaDirectory"),
            ("{\"trust\": {\"iacaDirectory\": \"t\", \"profileChecks\": \"strict\"}}", [:], "trust.profileChecks"),
            ("{\(trust), \"apple\": {\"merchantId\": \"m\", \"teamId\": \"t\"}}", [:], "apple.encryptionKeys"),
            ("{\(trust), \"readerTokens\": {\"brandId\": \"b\", \"keyId\": \"k\", \"signingKey\": \"k.pem\", \"clientTokens\": [\"c\"], \"lifetimeSeconds\": 301}}", [:], "readerTokens.lifetimeSeconds"),
            ("{\(trust), \"admin\": {\"token\": \"short\"}}", [:], "admin.token"),
            ("{\(trust), \"admin\": {\"tokenFile\": \"missing\"}}", [:], "admin.tokenFile"),
            ("not json", [:], "(file)"),
        ]
        for (json, environment, key) in cases {
            #expect(try error(json, environment: environment)?.key == key, "\(json)")
        }
    }

    @Test func unusableFilesStopTheServiceNamingTheKey() throws {
        let base = #""trust": {"iacaDirectory": "trust"}"#
        func serviceError(_ json: String, files: [String: String] = [:]) throws -> ConfigurationError? {
            let configuration = try ConfigurationLoader.load(file: try write(json, files: files), environment: [:])
            do {
                _ = try VerifierService(configuration: configuration, logger: .init(label: "t"))
                return nil
            } catch {
                return error
            }
        }
        #expect(try serviceError("{\(base), \"apple\": {\"merchantId\": \"m\", \"teamId\": \"t\", \"encryptionKeys\": [\"nope.pem\"]}}")?.key
                == "apple.encryptionKeys[0]")
        #expect(try serviceError("{\(base), \"apple\": {\"merchantId\": \"m\", \"teamId\": \"t\", \"encryptionKeys\": [\"bad.pem\"]}}",
                                 files: ["bad.pem": "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"])?.key
                == "apple.encryptionKeys[0]")
        let ds = try String(contentsOf: Fixtures.testVectors.appendingPathComponent("pki/ds-p256.pem"), encoding: .utf8)
        #expect(try serviceError("{\(base)}", files: ["trust/ds.pem": ds])?.reason.contains("not a CA") == true)
        #expect(try serviceError("{\(base), \"readerTokens\": {\"brandId\": \"b\", \"keyId\": \"k\", \"signingKey\": \"k.pem\", \"clientTokens\": [\"c\"]}}")?.key
                == "readerTokens.signingKey")
    }

    @Test func aNameTwiceInOneObjectIsRefusedNamingItsPath() throws {
        let trust = #""trust": {"iacaDirectory": "trust"}"#
        let cases: [(String, String)] = [
            ("{\(trust), \"server\": {\"port\": 8080, \"port\": 9090}}", "server.port"),
            ("{\(trust), \"server\": {\"port\": 8080}, \"server\": {\"port\": 9090}}", "server"),
            ("{\(trust), \(trust)}", "trust"),
            ("{\(trust), \"server\": {\"port\": 8080, \"\\u0070ort\": 9090}}", "server.port"),
            ("{\(trust), \"server\": {\"tls\": {\"minimumVersion\": \"1.2\", \"minimumVersion\": \"1.3\"}}}", "server.tls.minimumVersion"),
            ("{\"trust\": {\"iacaDirectory\": \"trust\", \"vicalSources\": [{\"name\": \"a\", \"url\": \"https://a.example\", \"url\": \"https://b.example\"}]}}",
             "trust.vicalSources[0].url"),
        ]
        for (json, key) in cases {
            let failure = try error(json)
            #expect(failure?.key == key, "\(json)")
            #expect(failure?.reason.contains("appears more than once") == true, "\(String(describing: failure))")
        }
        // The position of the second occurrence.
        let lines = try error("{\n  \(trust),\n  \"server\": {\n    \"port\": 8080,\n    \"port\": 9090\n  }\n}")
        #expect(lines?.reason.contains("line 5, column 5") == true, "\(String(describing: lines))")
        // JSON in an environment variable: the same rule, naming the key and the variable.
        let environment = ["VERIFIERD_TRUST_VICAL_SOURCES": #"[{"name": "a", "url": "https://a.example", "name": "b"}]"#]
        let fromEnvironment = try error("{\(trust)}", environment: environment)
        #expect(fromEnvironment?.key == "trust.vicalSources[0].name")
        #expect(fromEnvironment?.reason.contains("VERIFIERD_TRUST_VICAL_SOURCES") == true, "\(String(describing: fromEnvironment))")
        // The same name in different objects is fine.
        let loaded = try ConfigurationLoader.load(file: try write(
            "{\(trust), \"server\": {\"port\": 8080}, \"web\": {\"allowedOrigins\": [\"https://a.example\"], \"sessionTTLSeconds\": 300}, \"proximity\": {\"sessionTTLSeconds\": 600}}"),
            environment: [:])
        #expect(loaded.server.port == 8080)
        #expect(loaded.web?.sessionTTLSeconds == 300 && loaded.proximity?.sessionTTLSeconds == 600)
    }

    /// A mistyped key names the valid keys at its level, as the environment-variable message does.
    @Test func anUnknownKeyListsTheKnownOnes() throws {
        let base = #""trust": {"iacaDirectory": "trust"}"#
        let found = try error("{\(base), \"web\": {\"allowedOrigins\": [\"https://a.example\"], \"sessionTtlSeconds\": 300}}")
        #expect(found?.key == "web.sessionTtlSeconds")
        #expect(found?.reason.contains("known: allowStatelessVerify, allowedOrigins, maxSessionBytes, maxSessions, sessionTTLSeconds") == true,
                "\(String(describing: found))")
    }

    @Test func openID4VPSection() throws {
        let base = #""trust": {"iacaDirectory": "trust"}"#
        #expect(try error("{\(base), \"oid4vp\": {\"allowedOrigins\": []}}")?.key == "oid4vp.allowedOrigins")
        #expect(try error("{\(base), \"oid4vp\": {\"allowedOrigins\": [\"https://a.example/\"]}}")?.key == "oid4vp.allowedOrigins[0]")
        #expect(try error("{\(base), \"oid4vp\": {\"allowedOrigins\": [\"android:apk-key-hash:short\"]}}")?.key
                == "oid4vp.allowedOrigins[0]")
        #expect(try error("{\(base), \"oid4vp\": {\"allowedOrigins\": [\"https://a.example\"], \"publicBaseUrl\": \"https://v.example/\"}}")?.key
                == "oid4vp.publicBaseUrl")
        #expect(try error("{\(base), \"oid4vp\": {\"allowedOrigins\": [\"https://a.example\"], \"sessionTTLSeconds\": 5}}")?.key
                == "oid4vp.sessionTTLSeconds")
        #expect(try error("{\(base), \"oid4vp\": {\"allowedOrigins\": [\"https://a.example\"], \"responseMode\": \"dc_api\"}}")?.key
                == "oid4vp.responseMode")
        let android = "android:apk-key-hash:" + String(repeating: "A", count: 42) + "E"
        let loaded = try ConfigurationLoader.load(file: try write(
            "{\(base), \"oid4vp\": {\"allowedOrigins\": [\"https://a.example\", \"\(android)\"], \"publicBaseUrl\": \"https://v.example\"}}"),
            environment: [:])
        #expect(loaded.oid4vp?.allowedOrigins == ["https://a.example", android])
        #expect(loaded.oid4vp?.allowUnencryptedResponses == false)
        #expect(loaded.oid4vp?.publicBaseURL == "https://v.example")
    }

    /// `webhooks`: an endpoint per configured integrator, https (http only when allowlisted), a `whsec_` secret from
    /// a file, an outbox directory with the memory store, a timeout shorter than the lease.
    @Test func webhooks() throws {
        let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw\n"
        let files = ["hook.whsec": secret, "weak.whsec": "whsec_" + Data(count: 8).base64EncodedString(), "plain.txt": "not a secret"]
        func config(_ endpoints: String, extra: String = #", "outboxDirectory": "outbox", "outboxKeyFile": "outbox.key""#, outbound: String = "") -> String {
            #"{"trust": {"iacaDirectory": "trust"}, "integrators": {"tokens": {"shop": "shop-token-0123456789abcdef"}}\#(outbound), "webhooks": {"endpoints": \#(endpoints)\#(extra)}}"#
        }
        let good = #"[{"integrator": "shop", "url": "https://shop.example/hooks", "secretFile": "hook.whsec"}]"#
        let loaded = try ConfigurationLoader.load(file: try write(config(good), files: files), environment: [:])
        let section = try #require(loaded.webhooks)
        #expect(section.endpoints.map(\.integrator) == ["shop"] && section.endpoints.first?.url == "https://shop.example/hooks")
        #expect(section.outboxDirectory?.lastPathComponent == "outbox" && section.leaseSeconds == 30 && section.retry.maximumAttempts == 15)
        let without = try ConfigurationLoader.load(file: try write(#"{"trust": {"iacaDirectory": "trust"}}"#), environment: [:])
        #expect(without.webhooks == nil)
        let refusals: [(String, String, String, String)] = [
            (#"[{"integrator": "kiosk", "url": "https://k.example", "secretFile": "hook.whsec"}]"#, #", "outboxDirectory": "o", "outboxKeyFile": "o.key""#, "", "webhooks.endpoints[0].integrator"),
            (#"[{"integrator": "shop", "url": "http://shop.example/h", "secretFile": "hook.whsec"}]"#, #", "outboxDirectory": "o", "outboxKeyFile": "o.key""#, "", "webhooks.endpoints[0].url"),
            (#"[{"integrator": "shop", "url": "https://u:p@shop.example/h", "secretFile": "hook.whsec"}]"#, #", "outboxDirectory": "o", "outboxKeyFile": "o.key""#, "", "webhooks.endpoints[0].url"),
            (#"[{"integrator": "shop", "url": "https://shop.example/h", "secretFile": "weak.whsec"}]"#, #", "outboxDirectory": "o", "outboxKeyFile": "o.key""#, "", "webhooks.endpoints[0].secretFile"),
            (#"[{"integrator": "shop", "url": "https://shop.example/h", "secretFile": "plain.txt"}]"#, #", "outboxDirectory": "o", "outboxKeyFile": "o.key""#, "", "webhooks.endpoints[0].secretFile"),
            (#"[{"integrator": "shop", "url": "https://shop.example/h", "secret": "x"}]"#, #", "outboxDirectory": "o", "outboxKeyFile": "o.key""#, "", "webhooks.endpoints[0].secret"),
            (good + "", "", "", "webhooks.outboxDirectory"),
            // The waiting bodies are sealed on disk: no outbox directory without its key.
            (good, #", "outboxDirectory": "o""#, "", "webhooks.outboxKeyFile"),
            ("[]", #", "outboxDirectory": "o", "outboxKeyFile": "o.key""#, "", "webhooks.endpoints"),
            (#"[{"integrator": "shop", "url": "https://a.example", "secretFile": "hook.whsec"}, {"integrator": "shop", "url": "https://b.example", "secretFile": "hook.whsec"}]"#,
             #", "outboxDirectory": "o", "outboxKeyFile": "o.key""#, "", "webhooks.endpoints[1].integrator"),
            (good, #", "outboxDirectory": "o", "outboxKeyFile": "o.key", "leaseSeconds": 5, "timeoutSeconds": 10"#, "", "webhooks.leaseSeconds"),
            (good, #", "outboxDirectory": "o", "outboxKeyFile": "o.key", "maxAttempts": 0"#, "", "webhooks.maxAttempts"),
        ]
        for (endpoints, extra, outbound, key) in refusals {
            #expect(try error(config(endpoints, extra: extra, outbound: outbound), files: files)?.key == key, "\(endpoints) \(extra)")
        }
        // http to an allowlisted loopback destination is accepted (the tests' receivers).
        let loopback = #"[{"integrator": "shop", "url": "http://127.0.0.1:18700/h", "secretFile": "hook.whsec"}]"#
        #expect(try error(config(loopback, outbound: #", "outbound": {"allowedDestinations": ["127.0.0.1:18700"]}"#), files: files) == nil)
    }

    /// `sdJwtVc.metadataIssuers`: exact https issuers listed once (http only to an allowlisted destination), each
    /// optionally scoped by `vcts`; the same JSON array in the environment.
    @Test func sdJwtVcMetadataIssuers() throws {
        let base = #""trust": {"iacaDirectory": "trust"}"#
        func section(_ issuers: String, outbound: String = "") -> String {
            "{\(base)\(outbound), \"sdJwtVc\": {\"issuerDirectory\": \"issuers\", \"metadataIssuers\": \(issuers)}}"
        }
        let refusals: [(String, String, String)] = [
            (#"[{"iss": "http://issuer.example"}]"#, "", "sdJwtVc.metadataIssuers[0].iss"),
            (#"[{"iss": "https://issuer.example?x=1"}]"#, "", "sdJwtVc.metadataIssuers[0].iss"),
            (#"[{"iss": "https://issuer.example#f"}]"#, "", "sdJwtVc.metadataIssuers[0].iss"),
            (#"[{"iss": "issuer.example"}]"#, "", "sdJwtVc.metadataIssuers[0].iss"),
            (#"[{"iss": "https://a.example"}, {"iss": "https://a.example"}]"#, "", "sdJwtVc.metadataIssuers[1].iss"),
            (#"[{"iss": "https://a.example", "vct": ["x"]}]"#, "", "sdJwtVc.metadataIssuers[0].vct"),
            (#"[{"iss": "https://a.example", "vcts": [""]}]"#, "", "sdJwtVc.metadataIssuers[0].vcts[0]"),
            (#"[{"iss": "https://a.example", "vcts": "urn:x"}]"#, "", "sdJwtVc.metadataIssuers[0].vcts"),
            (#"{"iss": "https://a.example"}"#, "", "sdJwtVc.metadataIssuers"),
            (#"[{"iss": "HTTPS://a.example"}]"#, "", "sdJwtVc.metadataIssuers[0].iss"),
            (#"[{"iss": "https://user:pw@a.example"}]"#, "", "sdJwtVc.metadataIssuers[0].iss"),
            (#"[{"iss": 7}]"#, "", "sdJwtVc.metadataIssuers[0].iss"),
            (#"[{"iss": "https://a.example", "vcts": []}]"#, "", "sdJwtVc.metadataIssuers[0].vcts"),
            (#"[{"iss": "https://a.example", "vcts": ["x", "x"]}]"#, "", "sdJwtVc.metadataIssuers[0].vcts[1]"),
            (#"[{"iss": "http://127.0.0.1:18615/x"}]"#, #", "outbound": {"allowedDestinations": ["127.0.0.1:18614"]}"#,
             "sdJwtVc.metadataIssuers[0].iss"),
        ]
        for (issuers, outbound, key) in refusals {
            #expect(try error(section(issuers, outbound: outbound))?.key == key, "\(issuers)")
        }
        let allowlisted = #", "outbound": {"allowedDestinations": ["127.0.0.1:18614"]}"#
        let loaded = try ConfigurationLoader.load(file: try write(section(
            #"[{"iss": "https://issuer.example/tenant", "vcts": ["urn:eudi:pid:1"]}, {"iss": "http://127.0.0.1:18614/issuers/pid"}]"#,
            outbound: allowlisted)), environment: [:])
        #expect(loaded.sdJwtVc?.metadataIssuers == [.init(iss: "https://issuer.example/tenant", vcts: ["urn:eudi:pid:1"]),
                                                    .init(iss: "http://127.0.0.1:18614/issuers/pid")])
        #expect(loaded.sdJwtVc?.metadataCacheSeconds == 300)
        #expect(try error("{\(base), \"sdJwtVc\": {\"issuerDirectory\": \"issuers\", \"metadataCacheSeconds\": 5}}")?.key
                == "sdJwtVc.metadataCacheSeconds")
        let fromEnvironment = try ConfigurationLoader.load(file: try write(section("[]")), environment: [
            "VERIFIERD_SD_JWT_VC_METADATA_ISSUERS": #"[{"iss": "https://b.example"}]"#,
        ])
        #expect(fromEnvironment.sdJwtVc?.metadataIssuers == [.init(iss: "https://b.example")])
        let duplicate = try error(section("[]"), environment: ["VERIFIERD_SD_JWT_VC_METADATA_ISSUERS": #"[{"iss": "https://b.example", "iss": "https://c.example"}]"#])
        #expect(duplicate?.key == "sdJwtVc.metadataIssuers[0].iss", "\(String(describing: duplicate))")
    }

    @Test func webAndReaderAuthSections() throws {
        let base = #""trust": {"iacaDirectory": "trust"}"#
        #expect(try error("{\(base), \"web\": {\"allowedOrigins\": []}}")?.key == "web.allowedOrigins")
        #expect(try error("{\(base), \"web\": {\"allowedOrigins\": [\"https://a.example/\"]}}")?.key == "web.allowedOrigins[0]")
        #expect(try error("{\(base), \"web\": {\"allowedOrigins\": [\"https://a.example\"], \"sessionTTLSeconds\": 5}}")?.key
                == "web.sessionTTLSeconds")
        #expect(try error("{\(base), \"readerAuth\": {\"signingKey\": \"k\", \"certificateChain\": \"c\", \"mode\": \"all\"}}")?.key
                == "readerAuth.mode")
        #expect(try error("{\(base), \"readerAuth\": {\"signingKey\": \"k\"}}")?.key == "readerAuth.certificateChain")
        let loaded = try ConfigurationLoader.load(file: try write(
            "{\(base), \"web\": {\"allowedOrigins\": [\"https://a.example\", \"http://localhost:8080\"]}}"), environment: [:])
        #expect(loaded.web?.allowedOrigins.map(\.text) == ["https://a.example", "http://localhost:8080"])
        #expect(loaded.web?.allowStatelessVerify == false)
        #expect(loaded.web?.sessionTTLSeconds == 300)
        #expect(loaded.readerAuth == nil)
    }

    @Test func readerAuthMaterialIsCheckedAtStartUp() throws {
        let demo = Fixtures.testVectors.appendingPathComponent("demo/keys")
        let key = try String(contentsOf: demo.appendingPathComponent("reader-auth.pem"), encoding: .utf8)
        let chain = try String(contentsOf: demo.appendingPathComponent("reader-auth-chain.pem"), encoding: .utf8)
        let otherKey = try String(contentsOf: demo.appendingPathComponent("reader-token.pem"), encoding: .utf8)
        let blocks = chain.components(separatedBy: "-----END CERTIFICATE-----\n").filter { !$0.isEmpty }
            .map { $0 + "-----END CERTIFICATE-----\n" }
        let reversed = blocks.reversed().joined()
        let iaca = try String(contentsOf: Fixtures.testVectors.appendingPathComponent("pki/ds-p256.pem"), encoding: .utf8)
        func serviceError(key: String, chain: String) throws -> ConfigurationError? {
            let json = #"{"trust": {"iacaDirectory": "trust"}, "readerAuth": {"signingKey": "k.pem", "certificateChain": "c.pem", "mode": "both"}}"#
            let configuration = try ConfigurationLoader.load(file: try write(json, files: ["k.pem": key, "c.pem": chain]), environment: [:])
            do {
                _ = try VerifierService(configuration: configuration, logger: .init(label: "t"))
                return nil
            } catch {
                return error
            }
        }
        #expect(try serviceError(key: key, chain: chain) == nil)
        #expect(try serviceError(key: otherKey, chain: chain)?.key == "readerAuth.signingKey")
        #expect(try serviceError(key: key, chain: reversed)?.key == "readerAuth.certificateChain")
        // A document signer certificate has no mdoc reader EKU.
        #expect(try serviceError(key: key, chain: iaca)?.key == "readerAuth.signingKey")
        #expect(try serviceError(key: "nope", chain: chain)?.key == "readerAuth.signingKey")
    }
}
