import Foundation
import Testing
import TestSupport

/// The OpenID Foundation's OpenID4VP 1.0 verifier test plans (`oid4vp-1final-verifier-test-plan` and its HAIP plan,
/// in which the suite plays the wallet), emulated module by module by an independent TEST-ONLY wallet
/// (`TestVectors/generator/oidf_verifier_suite.py`) against the running service: cross-device, signed request
/// objects fetched from the suite's own https authorization endpoint, `direct_post.jwt`. One test per module, named
/// after it; every module under `x509_hash` (HAIP's), the happy flows under `x509_san_dns` too. The suite has no
/// status modules: the last three are ours. Every module's response URI answers 200 `{}` (verifierd never tells the
/// wallet the verdict; the suite takes a 2xx of a negative module as deferred verification), and the integrator's
/// result carries the verdict the module expects.
@Suite(.serialized)
struct OIDFVerifierSuiteTests {
    static let wallet = Fixtures.testVectors.appendingPathComponent("generator/oidf_verifier_suite.py")
    static let suiteEndpoint = "https://suite.example/test/a/verifierd/authorize"
    static let statusPort = 18616

    static func harness(prefix: String) throws -> ServiceHarness {
        try ServiceHarness(anchors: [ServiceHarness.pki.appendingPathComponent("iaca-p256.pem")]) { config in
            WebFlowTests.configure(mode: "readerAuth")(&config)
            var oid4vp: [String: Any] = ["allowedOrigins": WebFlowTests.origins, "sessionTTLSeconds": 300,
                                         "publicBaseUrl": OpenID4VPWalletInteropTests.publicBaseURL,
                                         "walletAuthorizationEndpoint": suiteEndpoint]
            if prefix == "x509_san_dns" {
                let material = Fixtures.testVectors.appendingPathComponent("oid4vp-conformance")
                var readerAuth = config["readerAuth"] as? [String: Any] ?? [:]
                readerAuth["signingKey"] = material.appendingPathComponent("keys/reader-auth-san-dns.pem").path
                readerAuth["certificateChain"] = material.appendingPathComponent("reader-auth-san-dns-chain.pem").path
                config["readerAuth"] = readerAuth
                oid4vp["clientIdPrefix"] = "x509_san_dns"
                oid4vp["clientIdDnsName"] = "verifier.example"
            }
            config["oid4vp"] = oid4vp
            config["sdJwtVc"] = ["issuerDirectory": "sd-jwt-vc-issuers",
                                 "seedDirectory": SDJWTVCVectors.folder.appendingPathComponent("trusted-issuers").path]
            // The status modules serve their lists on loopback over http, which only an allowlist opens.
            config["status"] = ["allowedSchemes": ["http"]]
            config["outbound"] = ["allowedDestinations": ["127.0.0.1:\(statusPort)"]]
        }
    }

    /// Runs one module; its JSON line.
    static func run(_ module: String, prefix: String = "x509_hash") async throws -> [String: Any] {
        let harness = try Self.harness(prefix: prefix)
        defer { Task { await harness.stop() } }
        let run = try ProcessRunner.run([
            "python3", wallet.path, "--base-url", "http://127.0.0.1:\(harness.server.port)",
            "--public-base-url", OpenID4VPWalletInteropTests.publicBaseURL, "--token", ServiceHarness.integratorToken,
            "--reader-root", WebWalletInteropTests.readerRoot.path, "--authorization-endpoint", suiteEndpoint,
            "--module", module, "--client-id-prefix", prefix, "--now", "1893456000", "--status-port", "\(statusPort)",
        ])
        await harness.stop()
        let line = run.output.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            .first { $0["module"] as? String == module } ?? [:]
        #expect(run.status == 0, "\(module) (\(prefix)):\n\(run.output)\n\(run.error)")
        #expect(line["ok"] as? Bool == true, "\(module) (\(prefix)): \(line)")
        #expect(run.output.split(separator: "\n").last == "1 passed, 0 failed", "\(run.output.suffix(400))")
        // The wallet is told only that its answer was received, positive module or negative.
        let flows = (line["flows"] as? [String: [String: Any]]).map { Array($0.values) } ?? [line]
        #expect(flows.allSatisfy { $0["responseStatus"] as? Int == 200 }, "\(line)")
        return line
    }

    /// A negative module: the result is 422 with `code`, from `check`.
    static func refused(_ module: String, code: String, check: String) async throws {
        let line = try await run(module)
        let failed = line["check"] as? [String: Any]
        #expect(line["resultStatus"] as? Int == 422 && line["code"] as? String == code, "\(line)")
        #expect(failed?["id"] as? String == check && failed?["outcome"] as? String == "failed" && failed?["code"] as? String == code, "\(line)")
    }

    static func verified(_ module: String, prefix: String = "x509_hash") async throws {
        let line = try await run(module, prefix: prefix)
        #expect(line["resultStatus"] as? Int == 200, "\(line)")
    }

    @Test func happyFlowMdoc() async throws { try await Self.verified("happy-flow-mdoc") }
    @Test func happyFlowSdJwt() async throws { try await Self.verified("happy-flow-sdjwt") }
    @Test func happyFlowMdocX509SanDns() async throws { try await Self.verified("happy-flow-mdoc", prefix: "x509_san_dns") }
    @Test func happyFlowSdJwtX509SanDns() async throws { try await Self.verified("happy-flow-sdjwt", prefix: "x509_san_dns") }
    @Test func minimalCnfJwk() async throws { try await Self.verified("minimal-cnf-jwk") }

    @Test func requestUriMethodPost() async throws {
        let line = try await Self.run("request-uri-method-post")
        #expect(line["resultStatus"] as? Int == 200 && line["requestUriMethod"] as? String == "post", "\(line)")
    }

    @Test func requestUriFetchedTwice() async throws {
        let line = try await Self.run("request-uri-fetched-twice")
        #expect(line["resultStatus"] as? Int == 200 && line["sameObject"] as? Bool == true, "\(line)")
    }

    @Test func invalidSessionTranscript() async throws {
        try await Self.refused("invalid-session-transcript", code: "DEVICE_SIGNATURE_INVALID", check: "device.authentication")
    }

    @Test func invalidKbJwtSignature() async throws {
        try await Self.refused("invalid-kb-jwt-signature", code: "SDJWT_KB_SIGNATURE_INVALID", check: "sdjwt.keyBinding")
    }

    @Test func invalidCredentialSignature() async throws {
        try await Self.refused("invalid-credential-signature", code: "ISSUER_SIGNATURE_INVALID", check: "sdjwt.issuerSignature")
    }

    @Test func invalidSdHash() async throws {
        try await Self.refused("invalid-sd-hash", code: "SDJWT_KB_SD_HASH_MISMATCH", check: "sdjwt.keyBinding")
    }

    @Test func invalidKbJwtNonce() async throws {
        try await Self.refused("invalid-kb-jwt-nonce", code: "SDJWT_KB_NONCE_MISMATCH", check: "sdjwt.keyBinding")
    }

    @Test func invalidKbJwtAud() async throws {
        try await Self.refused("invalid-kb-jwt-aud", code: "SDJWT_KB_AUDIENCE_MISMATCH", check: "sdjwt.keyBinding")
    }

    @Test func kbJwtIatInPast() async throws {
        try await Self.refused("kb-jwt-iat-in-past", code: "SDJWT_KB_IAT_OUT_OF_WINDOW", check: "sdjwt.keyBinding")
    }

    @Test func kbJwtIatInFuture() async throws {
        try await Self.refused("kb-jwt-iat-in-future", code: "SDJWT_KB_IAT_OUT_OF_WINDOW", check: "sdjwt.keyBinding")
    }

    @Test func statusRevoked() async throws {
        try await Self.refused("status-revoked", code: "STATUS_REVOKED", check: "sdjwt.status")
    }

    @Test func statusIdentifierListRevoked() async throws {
        try await Self.refused("status-identifier-list-revoked", code: "STATUS_REVOKED", check: "mso.status")
    }

    @Test func credentialWithoutStatus() async throws {
        let line = try await Self.run("credential-without-status")
        let flows = line["flows"] as? [String: [String: Any]] ?? [:]
        for format in ["mdoc", "sdjwt"] {
            let status = flows[format]?["statusCheck"] as? [String: Any]
            #expect(flows[format]?["resultStatus"] as? Int == 200 && status?["outcome"] as? String == "notApplicable", "\(format): \(line)")
        }
    }
}
