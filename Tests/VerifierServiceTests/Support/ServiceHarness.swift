import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPServer
import Logging
import Synchronization
import TestSupport
import TrustStore
@testable import ServiceObservability
import VerifierService

/// Log lines captured in memory.
final class LogCapture: Sendable {
    private let lines = Mutex<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}

/// A verifierd instance on a free loopback port, with a temporary configuration folder, captured logs and a fixed
/// clock. Requests go over real sockets with URLSession.
final class ServiceHarness: Sendable {
    let folder: URL
    let service: VerifierService
    let server: HTTPServer
    let logs = LogCapture()
    /// A session of its own, so its pooled connections close when the harness stops.
    let session = URLSession(configuration: .ephemeral)

    static let adminToken = "admin-token-for-tests-0123456789"
    static let clientToken = "client-token-for-tests"
    /// The integrator token every request carries unless it sets its own `Authorization` (``anonymous`` sends none).
    static let integratorToken = "integrator-token-for-tests-0123"
    static let integratorName = "tests"
    static let pki = Fixtures.testVectors.appendingPathComponent("pki")
    static let appleVectors = Fixtures.testVectors.appendingPathComponent("apple")

    struct Response {
        let status: Int
        let headers: [String: String]
        let body: Data
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// `configure` edits the configuration object before it is written; `anchors` are copied into the trust folder.
    /// `clock` overrides `now` when a test needs time to move.
    init(anchors: [URL] = [], now: Date = TestClock.date("2030-01-01T00:00:00Z"), clock: ManualClock? = nil,
         configure: (inout [String: Any]) -> Void = { _ in },
         http: (inout HTTPServerConfiguration) -> Void = { _ in }) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("verifierd-\(UUID().uuidString)")
        let trust = folder.appendingPathComponent("trusted-iaca")
        try FileManager.default.createDirectory(at: trust, withIntermediateDirectories: true)
        for anchor in anchors {
            try FileManager.default.copyItem(at: anchor, to: trust.appendingPathComponent(anchor.lastPathComponent))
        }
        var config: [String: Any] = [
            "server": ["host": "127.0.0.1", "port": 0],
            "apple": ["merchantId": "com.example.verifierd.test", "teamId": "VERIFIERD1",
                      "encryptionKeys": [Self.appleVectors.appendingPathComponent("keys/merchant-1.pem").path,
                                         Self.appleVectors.appendingPathComponent("keys/merchant-2.pem").path]],
            "trust": ["iacaDirectory": "trusted-iaca", "pollSeconds": 0],
            "verification": ["allowVerificationTimeOverride": true],
            "readerTokens": ["brandId": "BRAND", "keyId": "KEY1",
                             "signingKey": Fixtures.testVectors.appendingPathComponent("demo/keys/reader-token.pem").path,
                             "clientTokens": [Self.clientToken]],
            "admin": ["token": Self.adminToken],
            "integrators": ["tokens": [Self.integratorName: Self.integratorToken]],
        ]
        configure(&config)
        // Tests reach this machine only: nothing outside outbound.allowedDestinations is resolved or contacted
        // (the published vectors' certificates name real CRL distribution points), unless a test says otherwise.
        var outbound = config["outbound"] as? [String: Any] ?? [:]
        if outbound["publicDestinations"] == nil { outbound["publicDestinations"] = false }
        config["outbound"] = outbound
        let file = folder.appendingPathComponent("verifierd.json")
        try JSONSerialization.data(withJSONObject: config).write(to: file)
        let configuration = try ConfigurationLoader.load(file: file, environment: [:])
        let logs = self.logs
        let output = LogOutput { line in logs.append(line) }
        let logger = output.logger(label: "test")
        service = try VerifierService(configuration: configuration, logger: logger, now: { clock?.now ?? now })
        var serverConfiguration = service.httpServerConfiguration()
        http(&serverConfiguration)
        server = HTTPServer(configuration: serverConfiguration, router: service.router(),
                            observer: service.requestObserver(output: output))
        try server.start()
        service.listening(on: [server.port])
    }

    /// Stops the server and removes the folder; safe to call more than once. Tests await it at the end, and
    /// also `defer` it for early exits.
    func stop() async {
        session.invalidateAndCancel()
        await server.shutdown(deadline: .seconds(2))
        try? FileManager.default.removeItem(at: folder)
    }

    /// Sends a request; it carries the integrator token unless `headers` has its own `Authorization` or
    /// `anonymous` is set.
    func request(_ method: String, _ path: String, body: Data? = nil, headers: [String: String] = [:],
                 anonymous: Bool = false) async throws -> Response {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(server.port)\(path)")!)
        request.httpMethod = method
        request.httpBody = body
        if !anonymous && !headers.keys.contains(where: { $0.lowercased() == "authorization" }) {
            request.setValue("Bearer \(Self.integratorToken)", forHTTPHeaderField: "Authorization")
        }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await session.data(for: request)
        let http = response as! HTTPURLResponse
        var fields: [String: String] = [:]
        for (key, value) in http.allHeaderFields {
            if let key = key as? String, let value = value as? String { fields[key.lowercased()] = value }
        }
        return Response(status: http.statusCode, headers: fields, body: data)
    }

    func post(_ path: String, json: [String: Any], headers: [String: String] = [:]) async throws -> Response {
        try await request("POST", path, body: try JSONSerialization.data(withJSONObject: json),
                          headers: headers.merging(["Content-Type": "application/json"]) { a, _ in a })
    }

    func admin(_ method: String, _ path: String, body: Data? = nil) async throws -> Response {
        try await request(method, path, body: body, headers: ["Authorization": "Bearer \(Self.adminToken)"])
    }

    /// Runs `body` with the Annex D IACA written to a temporary PEM file (removed afterwards), e.g. to pass it as an
    /// anchor to a new harness.
    static func withAnnexDIACA<T>(_ body: (URL) throws -> T) throws -> T {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("annexd-iaca-\(UUID().uuidString).pem")
        try TrustDirectory.pem(try Fixtures.annexD("iaca_cert")).write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        return try body(file)
    }

    /// A generated Apple case's request body.
    static func appleCase(_ name: String) throws -> (body: [String: Any], manifest: JSONValue) {
        let manifest = try JSONValue.load(appleVectors.appendingPathComponent("manifest.json"))
        guard let entry = manifest["cases"]?.array.first(where: { $0["name"]?.string == name }),
              let envelopePath = entry["envelope"]?.string, let nonceHex = entry["nonce"]?.string,
              let nonce = [UInt8](hex: nonceHex)
        else { throw Fixtures.FixtureError.notHex(name) }
        let envelope = try Fixtures.hexFile(appleVectors.appendingPathComponent(envelopePath))
        return (["encryptedData": Data(envelope).base64EncodedString(), "nonce": Data(nonce).base64EncodedString()], entry)
    }
}
