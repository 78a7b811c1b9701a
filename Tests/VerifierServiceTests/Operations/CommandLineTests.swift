import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TestSupport
import TrustStore

/// The `verifierd` executable: exit codes and the operations commands.
@Suite(.serialized)
struct CommandLineTests {
    static var executable: URL {
        Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("verifierd")
    }

    static func locate() -> URL {
        var candidate = Bundle.main.bundleURL
        for _ in 0..<4 {
            let path = candidate.appendingPathComponent("verifierd")
            if FileManager.default.isExecutableFile(atPath: path.path) { return path }
            candidate = candidate.deletingLastPathComponent()
        }
        return Fixtures.repositoryRoot.appendingPathComponent(".build/debug/verifierd")
    }

    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> ProcessRunner.Result {
        try ProcessRunner.run(arguments, executable: locate(), environment: environment)
    }

    @Test func configurationErrorsExit78WithTheKey() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("verifierd-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let config = folder.appendingPathComponent("bad.json")
        try Data(#"{"trust": {"iacaDirectory": "."}, "readerTokens": {"brandId": "b", "keyId": "k", "signingKey": "k.pem", "clientTokens": ["c"], "lifetimeSeconds": 301}}"#.utf8).write(to: config)
        let run = try Self.run(["serve", "--config", config.path])
        #expect(run.status == 78)
        #expect(run.error.contains("readerTokens.lifetimeSeconds"))
        #expect(run.error.contains("1...300"))
        let missing = try Self.run(["serve", "--config", folder.appendingPathComponent("none.json").path])
        #expect(missing.status == 78)
        #expect(missing.error.contains("no such file") && missing.error.contains("pass --config"), "\(missing.error)")
    }

    @Test func aDuplicateNameInTheConfigurationOrAJSONRequestIsRefused() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("verifierd-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("twice.json")
        // (No trust section either: were the duplicate accepted, the error would name trust.iacaDirectory, not hang.)
        try Data(#"{"server": {"port": 8080, "port": 0}}"#.utf8).write(to: config)
        let run = try Self.run(["serve", "--config", config.path])
        #expect(run.status == 78)
        #expect(run.error.contains("server.port: appears more than once"), "\(run.error)")
        // decrypt reads a /v1/apple/verify request file as the API does.
        let demo = Fixtures.testVectors.appendingPathComponent("demo")
        let request = try String(contentsOf: demo.appendingPathComponent("verify-request.json"), encoding: .utf8)
        let twice = folder.appendingPathComponent("request.json")
        try Data(request.replacingOccurrences(of: "{", with: #"{"nonce": "00", "#, options: .anchored).utf8).write(to: twice)
        let decrypt = try Self.run(["decrypt", "--envelope", twice.path, "--at", "2030-01-01T00:00:00Z"])
        #expect(decrypt.status == 2)
        #expect(decrypt.error.contains(#"duplicate field "nonce""#), "\(decrypt.error)")
    }

    @Test func decryptAndTranscriptWithTheDemoConfiguration() throws {
        let demo = Fixtures.testVectors.appendingPathComponent("demo")
        let nonce = "6d0527da0a34bb404e8a4d43014d552463ae27907d46ac7e018dea853f78ff28"
        let decrypt = try Self.run(["decrypt", "--envelope", demo.appendingPathComponent("envelope.hex").path,
                                    "--nonce", nonce, "--at", "2030-01-01T00:00:00Z"])
        #expect(decrypt.status == 0)
        #expect(decrypt.output.contains("\"verified\":true"))
        #expect(decrypt.output.contains("Mustermann"))
        let transcript = try Self.run(["transcript", "--nonce", nonce])
        #expect(transcript.status == 0)
        #expect(transcript.output.contains("pkRHash     5010e0f3cbeff8809721acbec1d93dec5ca7d6a10e72e0de4a4cb5b67d11bec4"))
    }

    @Test func iacaCommandsEditTheDirectoryAtomically() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("verifierd-cli-\(UUID().uuidString)")
        let trust = folder.appendingPathComponent("trust")
        try FileManager.default.createDirectory(at: trust, withIntermediateDirectories: true)
        let config = folder.appendingPathComponent("c.json")
        try Data(#"{"trust": {"iacaDirectory": "trust"}}"#.utf8).write(to: config)
        let pki = Fixtures.testVectors.appendingPathComponent("pki")
        let add = try Self.run(["iaca", "add", "--config", config.path, pki.appendingPathComponent("iaca-p256.pem").path])
        #expect(add.status == 0, "\(add.error)")
        let list = try Self.run(["iaca", "list", "--config", config.path])
        #expect(list.output.contains("verifierd Test IACA P-256"))
        let fingerprint = String(list.output.prefix(64))
        #expect(try Self.run(["iaca", "check", "--config", config.path]).status == 0)
        let notCA = try Self.run(["iaca", "add", "--config", config.path, pki.appendingPathComponent("ds-p256.pem").path])
        #expect(notCA.status == 2, "a data error, not a usage error")
        #expect(notCA.error.contains("not a CA certificate") && !notCA.error.contains("Usage:"), "\(notCA.error)")
        let last = try Self.run(["iaca", "remove", "--config", config.path, fingerprint])
        #expect(last.status != 0, "the last anchor is not removed without --allow-empty")
        #expect(last.error.contains("allowEmpty") || last.error.contains("no trusted IACA"), "\(last.error)")
        #expect(try Self.run(["iaca", "remove", "--config", config.path, "--allow-empty", fingerprint]).status == 0)
        #expect(try Self.run(["iaca", "list", "--config", config.path]).output.isEmpty)
        #expect(try Self.run(["iaca", "check", "--config", config.path]).status != 0)
    }

    @Test func importVICALVerifiesDryRunsAndRefuses() throws {
        guard Fixtures.sharedVectorsAvailable else { return }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("verifierd-cli-vical-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let shared = Fixtures.sharedVectors.appendingPathComponent("vical")
        let config = folder.appendingPathComponent("c.json")
        try Data(#"{"trust": {"iacaDirectory": "trust", "seedDirectory": "seed", "vicalSigners": {"aamva": "aamva.pem"}}}"#.utf8).write(to: config)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("seed"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Fixtures.testVectors.appendingPathComponent("pki/iaca-p256.pem"),
                                         to: folder.appendingPathComponent("seed/iaca.pem"))
        try FileManager.default.copyItem(at: shared.appendingPathComponent("aamva_dts_root_ca.pem"), to: folder.appendingPathComponent("aamva.pem"))
        let vical = shared.appendingPathComponent("aamva-vical-2025-11-18.cbor").path

        // Today the signer certificate has expired: refused, non-zero, the code named, nothing written.
        let today = try Self.run(["iaca", "import-vical", "--config", config.path, "--source", "aamva", vical])
        #expect(today.status != 0)
        #expect(today.error.contains("VICAL_SIGNER_EXPIRED"), "\(today.error)")
        let dry = try Self.run(["iaca", "import-vical", "--config", config.path, "--source", "aamva", "--dry-run",
                                "--at", "2025-11-18T19:00:00Z", vical])
        #expect(dry.status == 0, "\(dry.error)")
        #expect(dry.output.split(separator: "\n").filter { $0.hasPrefix("added ") }.count == 14)
        #expect(try Self.run(["iaca", "list", "--config", config.path]).output.split(separator: "\n").count == 1)
        let real = try Self.run(["iaca", "import-vical", "--config", config.path, "--source", "aamva",
                                 "--at", "2025-11-18T19:00:00Z", vical])
        #expect(real.status == 0, "\(real.error)")
        let list = try Self.run(["iaca", "list", "--config", config.path]).output
        #expect(list.split(separator: "\n").count == 15)
        #expect(list.contains("[vical:aamva docTypes=org.iso.18013.5.1.mDL]"))
        // A signer anchor it does not chain to, and a source without one, are refused.
        let other = try Self.run(["iaca", "import-vical", "--config", config.path, "--source", "aamva", "--at", "2025-11-18T19:00:00Z",
                                  "--signer-anchor", Fixtures.testVectors.appendingPathComponent("vical/signer-root.pem").path, vical])
        #expect(other.status != 0)
        #expect(other.error.contains("VICAL_SIGNER_UNTRUSTED"), "\(other.error)")
        let unconfigured = try Self.run(["iaca", "import-vical", "--config", config.path, "--source", "rdw", vical])
        #expect(unconfigured.status == 2 && unconfigured.error.contains("has no signer anchor") && !unconfigured.error.contains("Usage:"),
                "\(unconfigured.error)")
        #expect(unconfigured.error.contains("no signer anchor"), "\(unconfigured.error)")
    }

    @Test func serveReloadsOnSIGHUPAndExitsZeroOnSIGTERM() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("verifierd-serve-\(UUID().uuidString)")
        let trust = folder.appendingPathComponent("trust")
        try FileManager.default.createDirectory(at: trust, withIntermediateDirectories: true)
        let pki = Fixtures.testVectors.appendingPathComponent("pki")
        try FileManager.default.copyItem(at: pki.appendingPathComponent("iaca-p256.pem"), to: trust.appendingPathComponent("a.pem"))
        let config = folder.appendingPathComponent("c.json")
        try Data(#"{"server": {"port": 0}, "trust": {"iacaDirectory": "trust", "pollSeconds": 0}, "admin": {"token": "serve-test-admin-token-0123"}}"#.utf8).write(to: config)
        let serve = try ServeProcess(config: config)
        let listening = try serve.port()
        func anchorCount() async throws -> Int {
            var request = URLRequest(url: URL(string: "http://127.0.0.1:\(listening)/v1/admin/iaca")!)
            request.setValue("Bearer serve-test-admin-token-0123", forHTTPHeaderField: "Authorization")
            let (data, _) = try await URLSession.shared.data(for: request)
            let json = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            return (json?["anchors"] as? [Any])?.count ?? -1
        }
        #expect(try await anchorCount() == 1)
        try FileManager.default.copyItem(at: pki.appendingPathComponent("iaca-p384.pem"), to: trust.appendingPathComponent("b.pem"))
        kill(serve.process.processIdentifier, SIGHUP)
        var count = 1
        for _ in 0..<50 where count != 2 {
            try await Task.sleep(for: .milliseconds(100))
            count = try await anchorCount()
        }
        #expect(count == 2)
        #expect(serve.terminate())  // SIGTERM: drains and exits 0
    }

    /// `verifierd status check`: fetches and verifies one list and exits 0 only for a valid entry.
    @Test func statusCheckReadsOneEntry() async throws {
        let lists = try StatusListServer()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("verifierd-status-\(UUID().uuidString)")
        let trust = folder.appendingPathComponent("trust")
        try FileManager.default.createDirectory(at: trust, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Fixtures.testVectors.appendingPathComponent("pki/iaca-p256.pem"),
                                         to: trust.appendingPathComponent("iaca.pem"))
        let config = folder.appendingPathComponent("c.json")
        try Data(#"{"trust": {"iacaDirectory": "trust"}, "status": {"allowedSchemes": ["http"], "fetchTimeoutSeconds": 2}, "outbound": {"allowedDestinations": ["127.0.0.1:18613"]}}"#.utf8).write(to: config)
        let uri = "http://127.0.0.1:\(StatusListServer.port)/lists/"
        // The lists are issued for the fixed test clock (2030): checked at the real clock, their iat is ahead.
        let at = ["--at", "2030-01-01T00:00:00Z"]
        let valid = try Self.run(["status", "check", "--config", config.path, "--uri", uri + "bits1", "--idx", "0"] + at)
        #expect(valid.status == 0, "\(valid.output) \(valid.error)")
        #expect(valid.output.contains("VALID"))
        let revoked = try Self.run(["status", "check", "--config", config.path, "--uri", uri + "bits1", "--idx", "1"] + at)
        #expect(revoked.status == 1)
        #expect(revoked.output.contains("INVALID"))
        let listed = try Self.run(["status", "check", "--config", config.path, "--uri", uri + "idlist", "--id", "0102"] + at)
        #expect(listed.status == 1)
        #expect(listed.output.contains("listed (revoked)"))
        let missing = try Self.run(["status", "check", "--config", config.path, "--uri", uri + "missing", "--idx", "0"] + at)
        #expect(missing.status == 1)
        #expect(missing.output.contains("unknown"))
        await lists.stop()
    }

    @Test func tokenKeygenWritesAPrivateKeyFile() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("reader-\(UUID().uuidString).pem")
        let run = try Self.run(["token", "keygen", "--out", file.path])
        #expect(run.status == 0)
        #expect(run.output.contains("BEGIN PUBLIC KEY"))
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let mint = try Self.run(["token", "mint", "--reader-instance-id", "reader-42"])
        #expect(mint.status == 0)
        #expect(mint.output.split(separator: ".").count == 3)
    }

    @Test func aReaderKeyThatDoesNotMatchItsCertificateStopsStartUp() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("verifierd-cli-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("trust"), withIntermediateDirectories: true)
        let keys = Fixtures.testVectors.appendingPathComponent("demo/keys")
        let config = folder.appendingPathComponent("config.json")
        try Data(#"{"trust": {"iacaDirectory": "trust"}, "readerAuth": {"signingKey": "\#(keys.appendingPathComponent("reader-token.pem").path)", "certificateChain": "\#(keys.appendingPathComponent("reader-auth-chain.pem").path)"}}"#.utf8).write(to: config)
        let run = try Self.run(["serve", "--config", config.path, "--port", "0"])
        #expect(run.status == 78)
        #expect(run.error.contains("readerAuth.signingKey"))
    }

    @Test func readerAuthInitWritesAChainTheServiceAccepts() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("verifierd-reader-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try Self.run(["reader-auth", "init", "--out", folder.path])
        #expect(run.status == 0)
        let ski = run.output.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(ski.count == 40 && ski.allSatisfy(\.isHexDigit))
        for name in ["reader-auth.pem", "reader-root-key.pem"] {
            let attributes = try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path)
            #expect((attributes[.posixPermissions] as? Int) == 0o600)
        }
        // The root's SKI is what was printed, and the service starts with the pair.
        let rootPEM = try String(contentsOf: folder.appendingPathComponent("reader-root.pem"), encoding: .utf8)
        let check = Process()
        check.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        check.arguments = ["x509", "-noout", "-ext", "subjectKeyIdentifier"]
        let input = Pipe(), output = Pipe()
        check.standardInput = input
        check.standardOutput = output
        try check.run()
        input.fileHandleForWriting.write(Data(rootPEM.utf8))
        try input.fileHandleForWriting.close()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        check.waitUntilExit()
        #expect(printed.replacingOccurrences(of: ":", with: "").lowercased().contains(ski))
        let config = folder.appendingPathComponent("config.json")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("trust"), withIntermediateDirectories: true)
        try Data(#"{"trust": {"iacaDirectory": "trust"}, "readerAuth": {"signingKey": "reader-auth.pem", "certificateChain": "reader-auth-chain.pem"}, "web": {"allowedOrigins": ["https://a.example"]}}"#.utf8).write(to: config)
        let decrypt = try Self.run(["web", "decrypt", "--config", config.path, "--encryption-info", "x", "--origin", "https://a.example",
                                    "--key", folder.appendingPathComponent("reader-auth.pem").path, "--response", "x"])
        // The configuration loads (no exit 78); the nonsense answer is simply not verified.
        #expect(decrypt.status == 1)
        #expect(decrypt.output.contains("\"verified\":false"))
        let again = try Self.run(["reader-auth", "init", "--out", folder.path])
        #expect(again.status != 0)
    }

    @Test(.enabled(if: Fixtures.sharedVectorsAvailable, "needs ../shared/vectors"))
    func webDecryptVerifiesTheReferenceVector() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("verifierd-webcli-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("trust"), withIntermediateDirectories: true)
        try TrustDirectory.pem(try Fixtures.annexD("iaca_cert")).write(
            to: folder.appendingPathComponent("trust/annex-d-iaca.pem"), atomically: true, encoding: .utf8)
        let config = folder.appendingPathComponent("config.json")
        try Data(#"{"trust": {"iacaDirectory": "trust"}}"#.utf8).write(to: config)
        let reference = Fixtures.sharedVectors.appendingPathComponent("annex-c/annexc-iso-reference")
        func arguments(origin: String) -> [String] {
            ["web", "decrypt", "--config", config.path,
             "--encryption-info", "@" + reference.appendingPathComponent("encryption_info.b64url").path,
             "--origin", origin, "--key", reference.appendingPathComponent("recipient_private_key_d.hex").path,
             "--response", "@" + reference.appendingPathComponent("encrypted_response.b64url").path,
             "--at", "2021-01-01T00:00:00Z"]
        }
        let run = try Self.run(arguments(origin: "https://example.com"))
        #expect(run.status == 0)
        #expect(run.output.contains("\"family_name\":\"Doe\""))
        let wrong = try Self.run(arguments(origin: "https://example.org"))
        #expect(wrong.status == 1)
        #expect(wrong.output.contains("DECRYPTION_FAILED"))
        let slash = try Self.run(arguments(origin: "https://example.com/"))
        #expect(slash.status != 0)
        #expect(!slash.output.contains("\"verified\":true"))
    }
}
