import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TestSupport

/// The configuration the compose topology and the Kubernetes ConfigMap carry (`config/deploy/verifierd.json`, the
/// same bytes in both, `scripts/ci/deploy-check.sh`) started for real: two `verifierd serve` processes on a throwaway
/// PostgreSQL cluster, with its `/run/secrets/` and `/etc/verifierd/` prefixes mapped to a folder of secrets made
/// here and to `config/deploy/`, the database URL to the cluster's and the port to a free one; nothing else changed.
/// The demo request verifies on each, and a trust change made on one is in force on the other.
@Suite(.serialized, .enabled(if: PostgresTestCluster.enabled, "no PostgreSQL binaries (initdb, pg_ctl) found: install Debian's postgresql"))
struct DeploymentConfigurationTests {
    static let integratorToken = "deploy-integrator-token-0123456789"
    static let adminToken = "deploy-admin-token-0123456789abcdef"

    /// The secrets the configuration names, made as docs/deployment.md says (TEST-ONLY values).
    static func secrets(in folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        func write(_ name: String, _ text: String) throws {
            try Data(text.utf8).write(to: folder.appendingPathComponent(name))
        }
        try write("verifierd-db-password", "not-checked-by-the-throwaway-cluster\n")
        try write("verifierd-session-key", Data((0..<32).map { _ in UInt8.random(in: 0...255) }).base64EncodedString() + "\n")
        try write("verifierd-integrators", "demo=\(integratorToken)\n")
        try write("verifierd-admin-token", adminToken + "\n")
        try FileManager.default.copyItem(at: Fixtures.testVectors.appendingPathComponent("demo/keys/merchant-encryption.pem"),
                                         to: folder.appendingPathComponent("verifierd-merchant-encryption.pem"))
    }

    /// `config/deploy/verifierd.json` with the two path prefixes mapped, the cluster's database and a free port.
    static func configuration(secrets: URL, database: String, into file: URL) throws -> URL {
        let deploy = Fixtures.repositoryRoot.appendingPathComponent("config/deploy")
        var text = try String(contentsOf: deploy.appendingPathComponent("verifierd.json"), encoding: .utf8)
        #expect(text.contains("/run/secrets/") && text.contains("/etc/verifierd/"))
        text = text.replacingOccurrences(of: "\"/run/secrets/", with: "\"\(secrets.path)/")
            .replacingOccurrences(of: "\"/etc/verifierd/", with: "\"\(deploy.path)/")
        var root = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        var server = try #require(root["server"] as? [String: Any])
        server["host"] = "127.0.0.1"
        server["port"] = 0
        root["server"] = server
        var store = try #require(root["store"] as? [String: Any])
        #expect(store["kind"] as? String == "postgres" && store["passwordFile"] != nil && store["sessionKeyFile"] != nil)
        store["url"] = database
        root["store"] = store
        try JSONSerialization.data(withJSONObject: root).write(to: file)
        return file
    }

    static func request(_ port: Int, _ method: String, _ path: String, body: Data? = nil, token: String) async throws
        -> (status: Int, json: [String: Any])
    {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        request.httpMethod = method
        request.httpBody = body
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        let (data, response) = try await URLSession(configuration: .ephemeral).data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, (try? JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:])
    }

    @Test func twoReplicasOnTheSharedConfiguration() async throws {
        let cluster = try PostgresTestCluster()
        defer { cluster.stopAndDelete() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("verifierd-deploy-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: folder) }
        let secrets = folder.appendingPathComponent("run-secrets")
        try Self.secrets(in: secrets)
        let config = try Self.configuration(secrets: secrets, database: try cluster.makeDatabase(),
                                            into: folder.appendingPathComponent("verifierd.json"))
        let replicas = try (0..<2).map { _ in try ServeProcess(config: config) }
        defer { for replica in replicas where replica.process.isRunning { replica.process.terminate() } }
        let ports = try replicas.map { try $0.port() }

        let demo = try Data(contentsOf: Fixtures.testVectors.appendingPathComponent("demo/verify-request.json"))
        for port in ports {
            let verified = try await Self.request(port, "POST", "/v1/apple/verify", body: demo, token: Self.integratorToken)
            #expect(verified.status == 200 && verified.json["verified"] as? Bool == true, "replica on \(port): \(verified.json)")
        }
        // A trust change on the first replica is in force on the second.
        let added = try Data(contentsOf: Fixtures.testVectors.appendingPathComponent("pki/iaca-p256.pem"))
        let change = try await Self.request(ports[0], "POST", "/v1/admin/iaca", body: added, token: Self.adminToken)
        #expect(change.status == 201, "\(change.json)")
        let deadline = Date().addingTimeInterval(10)
        var seen = 0
        while Date() < deadline {
            let listed = try await Self.request(ports[1], "GET", "/v1/admin/iaca", token: Self.adminToken)
            seen = (listed.json["anchors"] as? [[String: Any]])?.count ?? 0
            if seen == 2 { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(seen == 2, "the second replica sees the anchor added on the first")
    }
}
