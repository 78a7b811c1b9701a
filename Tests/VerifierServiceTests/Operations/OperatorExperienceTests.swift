import Encodings
import Foundation
import Testing
import TestSupport
@testable import VerifierConfiguration
@testable import VerifierService

/// The operator's edges: exit codes scripts can rely on, messages that name the file, the variable or the key,
/// the same encodings as the HTTP API, and no surprising defaults.
final class OperatorExperienceTests: @unchecked Sendable {
    static let demo = Fixtures.testVectors.appendingPathComponent("demo")
    static let nonceHex = "6d0527da0a34bb404e8a4d43014d552463ae27907d46ac7e018dea853f78ff28"
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("verifierd-operator-\(UUID().uuidString.prefix(8))")

    init() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    @Test func decryptExitCodesAndEncodings() throws {
        let envelope = Self.demo.appendingPathComponent("envelope.hex").path
        let base64Nonce = Data([UInt8](hexString: Self.nonceHex)!).base64EncodedString()
        // base64 nonce, as the HTTP API takes it: verified, exit 0.
        let verified = try CommandLineTests.run(["decrypt", "--envelope", envelope, "--nonce", base64Nonce, "--at", "2030-01-01T00:00:00Z"])
        #expect(verified.status == 0, "\(verified.error)")
        // Another nonce: a report that says why, exit 1.
        let other = try CommandLineTests.run(["decrypt", "--envelope", envelope, "--nonce", "hex:" + String(repeating: "ab", count: 32)])
        #expect(other.status == 1 && other.output.contains("\"verified\":false"))
        // The JSON request file is read as one, with a note, instead of as CBOR.
        let request = try CommandLineTests.run(["decrypt", "--envelope", Self.demo.appendingPathComponent("verify-request.json").path,
                                                "--at", "2030-01-01T00:00:00Z"])
        #expect(request.status == 0 && request.error.contains("is a JSON request"), "\(request.error)")
        // Unusable input: exit 2 and a plain message.
        let missing = try CommandLineTests.run(["decrypt", "--envelope", "/nonexistent/envelope", "--nonce", Self.nonceHex])
        #expect(missing.status == 2 && missing.error.contains("cannot read /nonexistent/envelope: no such file"), "\(missing.error)")
        let directory = try CommandLineTests.run(["decrypt", "--envelope", folder.path, "--nonce", Self.nonceHex])
        #expect(directory.status == 2 && directory.error.contains("is a directory"))
        let badNonce = try CommandLineTests.run(["decrypt", "--envelope", envelope, "--nonce", "not a nonce!"])
        #expect(badNonce.status == 2 && badNonce.error.contains("neither hex nor base64"))
        for result in [missing, directory, badNonce] {
            #expect(!result.error.contains("NSCocoaErrorDomain") && !result.error.contains("Error Domain"))
        }
        // transcript takes the same encodings.
        let transcript = try CommandLineTests.run(["transcript", "--nonce", base64Nonce])
        #expect(transcript.status == 0 && transcript.output.contains("infoHash"))
    }

    @Test func iacaCheckExitsNonZeroOnAnExpiredAnchorAndMessagesNameTheFlagAndTheBlock() throws {
        let pki = Fixtures.testVectors.appendingPathComponent("pki")
        let trust = folder.appendingPathComponent("trust")
        try FileManager.default.createDirectory(at: trust, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: pki.appendingPathComponent("iaca-p256.pem"), to: trust.appendingPathComponent("a.pem"))
        let environment = ["VERIFIERD_TRUST_IACA_DIRECTORY": trust.path]
        #expect(try CommandLineTests.run(["iaca", "check"], environment: environment).status == 0)
        let added = try CommandLineTests.run(["iaca", "add", pki.appendingPathComponent("iaca-expired.pem").path], environment: environment)
        #expect(added.status != 0 && added.error.contains("--allow-expired"), "\(added.error)")
        #expect(try CommandLineTests.run(["iaca", "add", "--allow-expired", pki.appendingPathComponent("iaca-expired.pem").path],
                                         environment: environment).status == 0)
        let check = try CommandLineTests.run(["iaca", "check"], environment: environment)
        #expect(check.status == 1 && check.output.contains("EXPIRED"))
        let badPEM = folder.appendingPathComponent("bad.pem")
        try Data("-----BEGIN CERTIFICATE-----\nnot base64 at all!!\n-----END CERTIFICATE-----\n".utf8).write(to: badPEM)
        let bad = try CommandLineTests.run(["iaca", "add", badPEM.path], environment: environment)
        #expect(bad.status != 0 && bad.error.contains("bad.pem") && bad.error.contains("PEM block 1 (CERTIFICATE, line 1)"), "\(bad.error)")
        #expect(!bad.error.contains("ASN1"))
        let missing = try CommandLineTests.run(["iaca", "add", folder.appendingPathComponent("absent.pem").path], environment: environment)
        #expect(missing.error.contains("absent.pem: no such file"))
    }

    @Test func versionAndServeOptions() throws {
        let version = try CommandLineTests.run(["--version"])
        #expect(version.status == 0 && version.output.hasPrefix("verifierd "))
        let badHost = try CommandLineTests.run(["serve", "--host", "example.com", "--port", "0"])
        #expect(badHost.status == 64 && badHost.error.contains("address literal"), "\(badHost.error)")
        // A validation error prints the usage of the command that refused it, not the top-level one.
        #expect(badHost.error.contains("Usage: verifierd serve"), "\(badHost.error)")
        let badID = try CommandLineTests.run(["status", "check", "--uri", "https://x.example/l", "--id", "zz"])
        #expect(badID.status == 64 && badID.error.contains("--id is not hex") && badID.error.contains("Usage: verifierd status check"),
                "\(badID.error)")
        let serve = try ServeProcess(config: Fixtures.repositoryRoot.appendingPathComponent("config/verifierd.json"),
                                     arguments: ["--port", "0", "--host", "127.0.0.1"])
        let port = try serve.port()
        // It answers on the port it was given (which also gives its signal handling time to be armed).
        #expect(RawHTTPClient.send(port: port, "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n") == 200)
        #expect(serve.terminate())
    }

    @Test func environmentOverridesAreCheckedAndNamed() throws {
        let config = Fixtures.repositoryRoot.appendingPathComponent("config/verifierd.json").path
        let unknown = try CommandLineTests.run(["iaca", "list", "--config", config], environment: ["VERIFIERD_SERVER_PROT": "1"])
        #expect(unknown.status == 78 && unknown.error.contains("VERIFIERD_SERVER_PROT") && unknown.error.contains("not a setting"))
        let port = try CommandLineTests.run(["iaca", "list", "--config", config], environment: ["VERIFIERD_SERVER_PORT": "eighty"])
        #expect(port.status == 78 && port.error.contains("set by VERIFIERD_SERVER_PORT"), "\(port.error)")
        let flag = try CommandLineTests.run(["iaca", "list", "--config", config],
                                            environment: ["VERIFIERD_VERIFICATION_ALLOW_VERIFICATION_TIME_OVERRIDE": "yes"])
        #expect(flag.status == 78 && flag.error.contains("must be true or false"))
        let host = try CommandLineTests.run(["iaca", "list", "--config", config], environment: ["VERIFIERD_SERVER_HOST": "localhost:80"])
        #expect(host.status == 78 && host.error.contains("VERIFIERD_SERVER_HOST"))
    }

    func loadError(_ json: String, files: [String: String] = [:]) throws -> ConfigurationError? {
        let file = folder.appendingPathComponent("c-\(UUID().uuidString.prefix(6)).json")
        try Data(json.utf8).write(to: file)
        for (name, text) in files { try Data(text.utf8).write(to: folder.appendingPathComponent(name)) }
        do {
            _ = try ConfigurationLoader.load(file: file, environment: [:])
            return nil
        } catch {
            return error
        }
    }

    @Test func theReadmeTranscriptExampleUsesTheDemoNonce() throws {
        let readme = try Fixtures.allDocumentation()
        let line = try #require(readme.split(separator: "\n").first { $0.contains("/v1/apple/session-transcript --data") })
        let request = try JSONSerialization.jsonObject(with: Data(contentsOf: Self.demo.appendingPathComponent("verify-request.json"))) as? [String: Any]
        let nonce = try #require(request?["nonce"] as? String)
        #expect(line.contains("\"nonce\": \"\(nonce)\""), "the example's infoHash must match verifierd transcript on the demo")
    }

    /// The README's `/v1/mdoc/verify` example runs on the demo configuration as written, and its transcript is
    /// the one the service builds for the demo nonce.
    @Test func theReadmeMDocVerifyExampleVerifiesOnTheDemo() async throws {
        let readme = try Fixtures.allDocumentation()
        #expect(readme.contains(#"curl -s -H "$I" --data @TestVectors/demo/mdoc-verify-request.json localhost:8080/v1/mdoc/verify"#))
        #expect(readme.contains("I='Authorization: Bearer demo-integrator-token-TEST-ONLY'"))
        let harness = try ServiceHarness(anchors: [Self.demo.appendingPathComponent("trusted-iaca/demo-iaca.pem")]) { config in
            config["apple"] = ["merchantId": "com.example.verifierd.demo", "teamId": "DEMOTEAM01",
                               "encryptionKeys": [Self.demo.appendingPathComponent("keys/merchant-encryption.pem").path]]
        }
        defer { Task { await harness.stop() } }
        let body = try Data(contentsOf: Self.demo.appendingPathComponent("mdoc-verify-request.json"))
        let answer = try await harness.request("POST", "/v1/mdoc/verify", body: body)
        #expect(answer.status == 200 && answer.json["verified"] as? Bool == true, "\(answer.text)")
        let request = try JSONSerialization.jsonObject(with: Data(contentsOf: Self.demo.appendingPathComponent("verify-request.json"))) as? [String: Any]
        let transcripts = try await harness.post("/v1/apple/session-transcript", json: ["nonce": try #require(request?["nonce"] as? String)])
        let built = (transcripts.json["transcripts"] as? [[String: Any]])?.first?["sessionTranscript"] as? String
        let example = (try JSONSerialization.jsonObject(with: body) as? [String: Any])?["sessionTranscript"] as? String
        #expect(built != nil && built == example)
        await harness.stop()
    }

    @Test func noSilentDefaults() throws {
        let trust = #""trust": {"iacaDirectory": "t"}"#
        #expect(try loadError(#"{"server": {"port": 8080}, \#(trust)}"#) == nil)
        #expect(try loadError(#"{\#(trust)}"#) == nil, "tools may run without a server section; serve may not:")
        let noPort = folder.appendingPathComponent("noport.json")
        try Data(#"{"trust": {"iacaDirectory": "t"}}"#.utf8).write(to: noPort)
        let serve = try CommandLineTests.run(["serve", "--config", noPort.path])
        #expect(serve.status == 78 && serve.error.contains("server.port: is required to serve"), "\(serve.error)")
        #expect(try loadError(#"{"server": {"port": null}, \#(trust)}"#)?.key == "server.port")
        #expect(try loadError(#"{"server": {"port": 1}, "admin": {"token": "0123456789abcdef0", "tokenFile": "t.secret"}, \#(trust)}"#,
                              files: ["t.secret": "0123456789abcdefX"])?.key == "admin.tokenFile")
        let syntax = try loadError("{\n  \"server\": {\"port\": 1}\n  \"trust\": {}\n}")
        #expect(syntax?.reason.contains("line 3, column 3") == true, "\(String(describing: syntax))")
        #expect(syntax?.reason.contains("missing comma") == true)
        #expect(syntax?.reason.contains("NSCocoaErrorDomain") == false)
    }
}
