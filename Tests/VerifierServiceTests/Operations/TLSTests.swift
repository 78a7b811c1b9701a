import Foundation
import HTTPServer
import ServerTLS
import Testing
import TestSupport
import VerifierService

/// HTTPS on our own listener (system OpenSSL): independent clients (curl, Python's ssl and raw ClientHellos,
/// URLSession), the protocol policy, robustness, certificate reload under load, client certificates for admin.
@Suite(.serialized)
struct TLSTests {
    static let client = Fixtures.testVectors.appendingPathComponent("generator/tls_client.py").path

    /// A throwaway PKI made now by `tls_test_pki.py` (Python cryptography).
    struct PKI {
        let folder: URL
        func file(_ name: String) -> URL { folder.appendingPathComponent(name) }
        var ca: String { file("server-ca.pem").path }

        init() throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("verifierd-pki-\(UUID().uuidString)")
            let run = try ProcessRunner.run(["python3", "TestVectors/generator/tls_test_pki.py", folder.path])
            guard run.status == 0 else { throw PKIError.generator(run.error) }
        }

        /// Copies a certificate and key to the paths the configuration names (what an operator's deploy does).
        func install(_ stem: String, certificate: URL, key: URL) throws {
            for (source, target) in [(file("\(stem).pem"), certificate), (file("\(stem).key"), key)] {
                let data = try Data(contentsOf: source)
                try data.write(to: target, options: .atomic)
            }
        }

        func remove() { try? FileManager.default.removeItem(at: folder) }
        enum PKIError: Error { case generator(String) }
    }

    /// A harness whose listener speaks TLS with `server.pem` (copied into its own folder, so reload tests can replace it).
    static func harness(_ pki: PKI, tls extra: [String: Any] = [:], anchors: [URL] = [],
                        configure: (inout [String: Any]) -> Void = { _ in },
                        http: (inout HTTPServerConfiguration) -> Void = { _ in }) throws -> (ServiceHarness, URL, URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("verifierd-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let certificate = folder.appendingPathComponent("server.pem"), key = folder.appendingPathComponent("server.key")
        try pki.install("server", certificate: certificate, key: key)
        var tls: [String: Any] = ["certificateChain": certificate.path, "privateKey": key.path]
        tls.merge(extra) { _, new in new }
        let harness = try ServiceHarness(anchors: anchors, configure: { config in
            config["server"] = ["host": "127.0.0.1", "port": 0, "tls": tls]
            configure(&config)
        }, http: http)
        return (harness, certificate, key)
    }

    /// curl over HTTPS: (status, body).
    static func curl(_ pki: PKI, port: Int, _ method: String, _ path: String, body: URL? = nil,
                     headers: [String] = [], clientCertificate: String? = nil) throws -> (Int, String) {
        var arguments = ["curl", "-s", "--cacert", pki.ca, "-X", method, "-w", "\n%{http_code}",
                         "https://localhost:\(port)\(path)"]
        if let body {
            arguments += ["--data-binary", "@\(body.path)"]
            if !headers.contains(where: { $0.lowercased().hasPrefix("content-type:") }) {
                arguments += ["-H", "Content-Type: application/json"]
            }
        }
        for header in headers { arguments += ["-H", header] }
        if let stem = clientCertificate {
            arguments += ["--cert", pki.file("\(stem).pem").path, "--key", pki.file("\(stem).key").path]
        }
        let run = try ProcessRunner.run(arguments)
        let lines = run.output.split(separator: "\n", omittingEmptySubsequences: false)
        let status = Int(lines.last ?? "") ?? 0
        return (status, lines.dropLast().joined(separator: "\n"))
    }

    static func python(_ command: String, port: Int, _ pki: PKI?, _ extra: [String] = []) throws -> [String: Any] {
        var arguments = ["python3", client, command, "--port", "\(port)"]
        if let pki { arguments += ["--ca", pki.ca] }
        let run = try ProcessRunner.run(arguments + extra)
        #expect(run.status == 0, "tls_client.py \(command): \(run.error)")
        return run.json
    }

    // MARK: Clients

    @Test func theAppleSampleVerifiesOverHTTPSWithCurlAndURLSession() async throws {
        let pki = try PKI()
        defer { pki.remove() }
        let sample = Fixtures.sharedVectors.appendingPathComponent("apple-identity-sample")
        let (harness, _, _) = try Self.harness(pki, anchors: [sample.appendingPathComponent("issuer_root.pem")],
                                               configure: PublishedVectorsOverHTTPTests.configureForAppleSample)
        defer { Task { await harness.stop() } }
        let nonce = try Fixtures.hexFile(sample.appendingPathComponent("nonce.hex"))
        let envelope = try Fixtures.bytes(sample.appendingPathComponent("hpke_envelope.cbor"))
        let body = harness.folder.appendingPathComponent("apple-request.json")
        try JSONSerialization.data(withJSONObject: [
            "encryptedData": Data(envelope).base64EncodedString(), "nonce": Data(nonce).base64EncodedString(),
            "verificationTime": "2022-06-01T00:00:00Z",
        ]).write(to: body)
        let port = harness.server.port

        let integrator = "Authorization: Bearer \(ServiceHarness.integratorToken)"
        let (status, text) = try Self.curl(pki, port: port, "POST", "/v1/apple/verify", body: body, headers: [integrator])
        #expect(status == 200)
        #expect(text.contains("\"given_name\":\"Jane\""))
        #expect(text.contains("\"verified\":true"))

        // URLSession (FoundationNetworking on libcurl) trusts only the system bundle; in a private mount namespace
        // the test CA stands in for it, for this one child process.
        let probe = CommandLineTests.locate().deletingLastPathComponent().appendingPathComponent("https-probe").path
        let script = "mount --bind \(pki.ca) /etc/ssl/certs/ca-certificates.crt && exec \(probe) POST "
            + "https://localhost:\(port)/v1/apple/verify \(body.path) --header '\(integrator)'"
        let session = try ProcessRunner.run(["unshare", "-m", "sh", "-c", script])
        #expect(session.status == 0, "https-probe: \(session.error)")
        #expect(session.output.hasPrefix("200\n"))
        #expect(session.output.contains("\"given_name\":\"Jane\""))
        // Without the CA, URLSession refuses the certificate: the check above was a real verification.
        let untrusted = try ProcessRunner.run([probe, "GET", "https://localhost:\(port)/healthz"])
        #expect(untrusted.status == 1)
        await harness.stop()
    }

    @Test func keepAliveAndPipeliningWorkOverTLS() async throws {
        let pki = try PKI()
        defer { pki.remove() }
        let (harness, _, _) = try Self.harness(pki)
        defer { Task { await harness.stop() } }
        let result = try Self.python("keepalive", port: harness.server.port, pki)
        #expect(result["sequential"] as? [Int] == [200, 200, 200, 200, 200])
        #expect(result["pipelined"] as? [Int] == [200, 200, 200])
        #expect(result["version"] as? String == "TLSv1.3")
        #expect(result["alpn"] as? String == "http/1.1")
        #expect(result["serial"] as? String == "1001")
        let tls12 = try Self.python("tls12", port: harness.server.port, pki)
        #expect(tls12["version"] as? String == "TLSv1.2")
        let cipher = tls12["cipher"] as? String ?? ""
        #expect(cipher.hasPrefix("ECDHE-") && (cipher.contains("GCM") || cipher.contains("CHACHA20")), "\(cipher)")
        #expect(tls12["status"] as? Int == 200)
        await harness.stop()
    }

    @Test func oldProtocolsAndWeakSuitesAreRefused() async throws {
        let pki = try PKI()
        defer { pki.remove() }
        let (harness, _, _) = try Self.harness(pki)
        defer { Task { await harness.stop() } }
        let result = try Self.python("refused", port: harness.server.port, nil)
        func alert(_ name: String) -> String? { (result[name] as? [String: Any])?["alert"] as? String }
        #expect(alert("tls11Only") == "protocol_version", "\(result)")
        #expect(alert("cbcOnly") == "handshake_failure", "\(result)")
        #expect(alert("rsaKeyExchangeOnly") == "handshake_failure", "\(result)")
        #expect((result["ecdheGcm"] as? [String: Any])?["serverHello"] as? Bool == true, "\(result)")
        let python11 = result["pythonTls11"] as? String ?? ""
        #expect(python11.hasPrefix("refused") || python11.hasPrefix("client cannot offer"), "\(python11)")

        // A listener with minimumVersion 1.3 refuses a TLS 1.2 client.
        let (strict, _, _) = try Self.harness(pki, tls: ["minimumVersion": "1.3"])
        defer { Task { await strict.stop() } }
        let tls12 = try ProcessRunner.run(["python3", Self.client, "tls12", "--port", "\(strict.server.port)", "--ca", pki.ca])
        #expect(tls12.status != 0)
        #expect(tls12.error.contains("PROTOCOL_VERSION") || tls12.error.contains("protocol version"), "\(tls12.error)")
        await strict.stop()
        await harness.stop()
    }

    @Test func plainHTTPOnTheTLSPortIsClosedCleanly() async throws {
        let pki = try PKI()
        defer { pki.remove() }
        let (harness, _, _) = try Self.harness(pki)
        defer { Task { await harness.stop() } }
        for _ in 0..<3 {
            let result = try Self.python("plain", port: harness.server.port, nil)
            #expect(result["closed"] as? Bool == true)
            #expect((result["seconds"] as? Double ?? 99) < 2)
            #expect(result["httpAnswer"] as? Bool == false)
        }
        // The server is unharmed.
        let after = try Self.python("keepalive", port: harness.server.port, pki)
        #expect(after["pipelined"] as? [Int] == [200, 200, 200])
        await harness.stop()
    }

    @Test func idleConnectionsAndSlowHandshakesDoNotStopOthers() async throws {
        let pki = try PKI()
        defer { pki.remove() }
        let (harness, _, _) = try Self.harness(pki)
        defer { Task { await harness.stop() } }
        let idle = try Self.python("idle", port: harness.server.port, pki, ["--count", "200"])
        #expect(idle["held"] as? Int == 200)
        #expect(idle["failures"] as? Int == 0)
        #expect((idle["worstSeconds"] as? Double ?? 99) < 1, "\(idle)")
        #expect(idle["heldStillServed"] as? Int == 5)
        await harness.stop()

        // Half a ClientHello, and a connection that sends nothing, are cut at the header timeout (2 s here).
        let (short, _, _) = try Self.harness(pki, http: { $0.headerReadTimeout = .seconds(2) })
        defer { Task { await short.stop() } }
        let slow = try Self.python("slow", port: short.server.port, pki)
        #expect(slow["failures"] as? Int == 0)
        #expect((slow["worstSeconds"] as? Double ?? 99) < 1, "\(slow)")
        for key in ["halfHelloClosedAfter", "silentClosedAfter"] {
            let seconds = slow[key] as? Double ?? 99
            #expect(seconds >= 1.5 && seconds < 5, "\(key): \(seconds)")
        }
        await short.stop()
    }

    // MARK: Reload

    @Test func aReloadUnderLoadFailsNoRequestAndNewHandshakesGetTheNewCertificate() async throws {
        let pki = try PKI()
        defer { pki.remove() }
        let (harness, certificate, key) = try Self.harness(pki)
        defer { Task { await harness.stop() } }
        let port = harness.server.port
        let load = ProcessRunner.start(["python3", Self.client, "load", "--port", "\(port)", "--ca", pki.ca,
                                        "--seconds", "6", "--threads", "4"])
        try await Task.sleep(for: .seconds(2))
        try pki.install("server-next", certificate: certificate, key: key)
        let admin = "Authorization: Bearer \(ServiceHarness.adminToken)"
        let (status, body) = try Self.curl(pki, port: port, "POST", "/v1/admin/tls/reload", headers: [admin])
        #expect(status == 200, "\(body)")
        #expect(body.contains("\"serial\":\"1002\""))
        try await Task.sleep(for: .seconds(1))

        // A pair that does not match is refused and the one in force stays.
        try Data(contentsOf: pki.file("server.key")).write(to: key, options: .atomic)
        let (refused, problem) = try Self.curl(pki, port: port, "POST", "/v1/admin/tls/reload", headers: [admin])
        #expect(refused == 422)
        #expect(problem.contains("TLS_RELOAD_FAILED") && problem.contains("server.tls.privateKey"))

        let totals = try await load.value.json
        #expect(totals["failures"] as? Int == 0, "\(totals)")
        #expect((totals["requests"] as? Int ?? 0) > 100, "\(totals)")
        let serials = totals["serials"] as? [String: Int] ?? [:]
        #expect(serials["1001"] ?? 0 > 0 && serials["1002"] ?? 0 > 0, "\(serials)")
        let after = try Self.python("keepalive", port: port, pki)
        #expect(after["serial"] as? String == "1002")
        try await Task.sleep(for: .milliseconds(100))
        let logs = harness.logs.all.joined(separator: "\n")
        #expect(logs.contains("tls certificate reloaded") && logs.contains("tls reload refused"))
        await harness.stop()
    }

    // MARK: Client certificates

    @Test func adminRoutesNeedAClientCertificateChainingToTheClientCA() async throws {
        let pki = try PKI()
        defer { pki.remove() }
        let (harness, _, _) = try Self.harness(pki, tls: ["clientCA": pki.file("client-ca.pem").path])
        defer { Task { await harness.stop() } }
        let port = harness.server.port
        let admin = "Authorization: Bearer \(ServiceHarness.adminToken)"

        let (missing, missingBody) = try Self.curl(pki, port: port, "GET", "/v1/admin/iaca", headers: [admin])
        #expect(missing == 403)
        #expect(missingBody.contains("CLIENT_CERTIFICATE_REQUIRED"))
        let (foreign, foreignBody) = try Self.curl(pki, port: port, "GET", "/v1/admin/iaca", headers: [admin],
                                                   clientCertificate: "foreign-client")
        #expect(foreign == 403)
        #expect(foreignBody.contains("does not chain"))
        // Unknown paths under the prefix too: nothing about the admin routes is revealed without a certificate.
        let (unknown, _) = try Self.curl(pki, port: port, "GET", "/v1/admin/nothing-here", headers: [admin])
        #expect(unknown == 403)
        // Public routes do not need one, and a foreign certificate does not break them.
        let (health, _) = try Self.curl(pki, port: port, "GET", "/healthz", clientCertificate: "foreign-client")
        #expect(health == 200)
        // The certificate comes in addition to the token.
        let (noToken, _) = try Self.curl(pki, port: port, "GET", "/v1/admin/iaca", clientCertificate: "client")
        #expect(noToken == 401)
        let (good, _) = try Self.curl(pki, port: port, "GET", "/v1/admin/iaca", headers: [admin], clientCertificate: "client")
        #expect(good == 200)

        // The certificate's subject is the actor in the trust-change log.
        let anchor = Fixtures.testVectors.appendingPathComponent("pki/iaca-p256.pem")
        let (added, addedBody) = try Self.curl(pki, port: port, "POST", "/v1/admin/iaca", body: anchor,
                                               headers: [admin, "Content-Type: application/x-pem-file"],
                                               clientCertificate: "client")
        #expect(added == 201, "\(addedBody)")
        try await Task.sleep(for: .milliseconds(100))
        let change = harness.logs.all.first { $0.contains("\"action\":\"add\"") } ?? ""
        #expect(change.contains("client-certificate:") && change.contains("CN=ops-alice"), "\(change)")
        await harness.stop()
    }

    // MARK: Start-up and signals

    /// Writes a configuration with a TLS section and returns its file.
    static func configuration(_ folder: URL, tls: [String: Any], server extra: [String: Any] = [:]) throws -> URL {
        let trust = folder.appendingPathComponent("trust")
        try FileManager.default.createDirectory(at: trust, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Fixtures.testVectors.appendingPathComponent("pki/iaca-p256.pem"),
                                         to: trust.appendingPathComponent("a.pem"))
        var server: [String: Any] = ["host": "127.0.0.1", "port": 0, "tls": tls]
        server.merge(extra) { _, new in new }
        let file = folder.appendingPathComponent("c.json")
        try JSONSerialization.data(withJSONObject: [
            "server": server, "trust": ["iacaDirectory": "trust", "pollSeconds": 0],
        ]).write(to: file)
        return file
    }

    @Test func badTLSFilesStopStartUpWithExit78NamingTheKey() throws {
        let pki = try PKI()
        defer { pki.remove() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("verifierd-tls78-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cert = pki.file("server.pem").path, key = pki.file("server.key").path
        let cases: [(tls: [String: Any], server: [String: Any], key: String, says: String)] = [
            (["certificateChain": folder.appendingPathComponent("missing.pem").path, "privateKey": key], [:],
             "server.tls.certificateChain", "no such file"),
            (["certificateChain": cert, "privateKey": pki.file("server-next.key").path], [:],
             "server.tls.privateKey", "does not match"),
            (["certificateChain": cert, "privateKey": pki.file("not-a-key.key").path], [:],
             "server.tls.privateKey", "no readable unencrypted PEM private key"),
            (["certificateChain": key, "privateKey": key], [:], "server.tls.certificateChain", "no PEM CERTIFICATE"),
            (["certificateChain": folder.path, "privateKey": key], [:], "server.tls.certificateChain", "is a directory"),
            (["certificateChain": cert, "privateKey": key, "minimumVersion": "1.1"], [:],
             "server.tls.minimumVersion", "\"1.2\" or \"1.3\""),
            (["certificateChain": cert, "privateKey": key, "requireClientCertificateFor": ["/v1/admin/"]], [:],
             "server.tls.requireClientCertificateFor", "needs server.tls.clientCA"),
            (["certificateChain": cert, "privateKey": key, "clientCA": key], [:], "server.tls.clientCA", "not a readable"),
            (["certificateChain": cert, "privateKey": key, "unknown": 1], [:], "server.tls.unknown", "unknown key"),
            (["certificateChain": cert, "privateKey": key], ["plainHealthPort": "x"], "server.plainHealthPort", "integer"),
        ]
        for (index, c) in cases.enumerated() {
            let sub = folder.appendingPathComponent("\(index)")
            let file = try Self.configuration(sub, tls: c.tls, server: c.server)
            let run = try CommandLineTests.run(["serve", "--config", file.path])
            #expect(run.status == 78, "case \(index): \(run.error)")
            #expect(run.error.contains(c.key) && run.error.contains(c.says), "case \(index): \(run.error)")
        }
        // A plain health port without TLS is refused.
        let plainOnly = folder.appendingPathComponent("plain.json")
        try Data(#"{"server": {"port": 0, "plainHealthPort": 0}, "trust": {"iacaDirectory": "."}}"#.utf8).write(to: plainOnly)
        let run = try CommandLineTests.run(["serve", "--config", plainOnly.path])
        #expect(run.status == 78 && run.error.contains("server.plainHealthPort"), "\(run.error)")
    }

    @Test func sighupReloadsTheCertificateAndThePlainPortServesOnlyProbes() async throws {
        let pki = try PKI()
        defer { pki.remove() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("verifierd-tlshup-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let certificate = folder.appendingPathComponent("server.pem"), key = folder.appendingPathComponent("server.key")
        try pki.install("server", certificate: certificate, key: key)
        let config = try Self.configuration(folder, tls: ["certificateChain": "server.pem", "privateKey": "server.key"],
                                            server: ["plainHealthPort": 0])
        let serve = try ServeProcess(config: config)
        let port = try serve.port(), healthPort = try #require(serve.number("plainHealthPort"))
        #expect(serve.startLog.contains("\"scheme\":\"https\""))
        #expect(try Self.python("keepalive", port: port, pki)["serial"] as? String == "1001")

        // The plain port answers the probes and metrics, and nothing else.
        for (path, expected) in [("/healthz", 200), ("/readyz", 200), ("/metrics", 200), ("/v1/admin/iaca", 404),
                                 ("/openapi.json", 404)] {
            let run = try ProcessRunner.run(["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}",
                                             "http://127.0.0.1:\(healthPort)\(path)"])
            #expect(run.output == "\(expected)", "\(path)")
        }
        let metrics = try ProcessRunner.run(["curl", "-s", "http://127.0.0.1:\(healthPort)/metrics"])
        #expect(metrics.output.contains("verifierd_tls_certificate_expiry_days"))

        try pki.install("server-next", certificate: certificate, key: key)
        kill(serve.process.processIdentifier, SIGHUP)
        var serial = ""
        for _ in 0..<20 where serial != "1002" {
            try await Task.sleep(for: .milliseconds(100))
            serial = try Self.python("keepalive", port: port, pki)["serial"] as? String ?? ""
        }
        #expect(serial == "1002")
        #expect(serve.terminate())
    }

    // MARK: Configuration and the identity

    @Test func theTLSSectionComesFromTheFileOrTheEnvironment() throws {
        let pki = try PKI()
        defer { pki.remove() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("verifierd-tlsenv-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let plain = try Self.configuration(folder, tls: [:])
        // An empty object in the file plus the environment.
        let fromEnvironment = try ConfigurationLoader.load(file: plain, environment: [
            "VERIFIERD_SERVER_TLS_CERTIFICATE_CHAIN": pki.file("server.pem").path,
            "VERIFIERD_SERVER_TLS_PRIVATE_KEY": pki.file("server.key").path,
            "VERIFIERD_SERVER_TLS_MINIMUM_VERSION": "1.3",
        ])
        let tls = try #require(fromEnvironment.server.tls)
        #expect(tls.settings.minimumVersion == .tls13)
        #expect(tls.settings.clientCA == nil && tls.requireClientCertificateFor.isEmpty)
        // A client CA alone protects the admin routes by default.
        let withCA = try Self.configuration(folder.appendingPathComponent("ca"), tls: [
            "certificateChain": pki.file("server.pem").path, "privateKey": pki.file("server.key").path,
            "clientCA": pki.file("client-ca.pem").path])
        let loaded = try ConfigurationLoader.load(file: withCA, environment: [:])
        #expect(loaded.server.tls?.requireClientCertificateFor == ["/v1/admin/"])
        #expect(loaded.server.tls?.settings.ticketKeyLifetime == .seconds(12 * 3600))
    }

    @Test func theTicketKeyRotatesWithoutChangingTheCertificateAndAFailedReloadChangesNothing() async throws {
        let pki = try PKI()
        defer { pki.remove() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("verifierd-tlsid-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let certificate = folder.appendingPathComponent("s.pem"), key = folder.appendingPathComponent("s.key")
        try pki.install("server", certificate: certificate, key: key)
        let identity = try TLSServerIdentity(settings: TLSSettings(certificateChain: certificate, privateKey: key,
                                                                   ticketKeyLifetime: .milliseconds(200)))
        let first = identity.context
        #expect(identity.context === first)
        // New files on disk are not picked up by a rotation, only by a reload.
        try pki.install("server-next", certificate: certificate, key: key)
        try await Task.sleep(for: .milliseconds(300))
        let rotated = identity.context
        #expect(rotated !== first)
        #expect(rotated.certificateSerial == "1001")
        // A broken pair is refused and the context in force stays.
        try Data(contentsOf: pki.file("server.key")).write(to: key)
        #expect(throws: TLSSetupError.self) { try identity.reload() }
        #expect(identity.context === rotated)
        try pki.install("server-rsa", certificate: certificate, key: key)
        #expect(try identity.reload().certificateSerial == "1003")
    }
}
