import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TestSupport

/// On one process with a trust directory, the trust-change history is the directory's change log: it survives a
/// restart, shows a change made with `verifierd iaca` as the CLI's, and versions go on rather than starting again.
/// (The replica test checks that every replica reads the database's history the same.)
@Suite(.serialized)
struct TrustChangeHistoryTests {
    static let adminToken = "history-admin-token-0123456789"
    static let pki = Fixtures.testVectors.appendingPathComponent("pki")

    struct Change {
        let version: Int
        let actor: String
        let action: String
    }

    static func changes(port: Int) async throws -> [Change] {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/v1/admin/trust/changes")!)
        request.setValue("Bearer \(adminToken)", forHTTPHeaderField: "Authorization")
        let (data, response) = try await URLSession.shared.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        let list = try #require((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["changes"] as? [[String: Any]])
        return list.map { Change(version: $0["version"] as? Int ?? -1, actor: $0["actor"] as? String ?? "",
                                 action: $0["action"] as? String ?? "") }
    }

    static func add(_ file: String, port: Int) async throws -> Int {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/v1/admin/iaca")!)
        request.httpMethod = "POST"
        request.setValue("Bearer \(adminToken)", forHTTPHeaderField: "Authorization")
        request.setValue("application/x-pem-file", forHTTPHeaderField: "Content-Type")
        request.httpBody = try Data(contentsOf: pki.appendingPathComponent(file))
        let (data, response) = try await URLSession.shared.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 201, "\(String(decoding: data, as: UTF8.self))")
        return (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["version"] as? Int ?? -1
    }

    /// A fresh folder: a trust directory with one IACA and a configuration with an admin token.
    static func fixture() throws -> (folder: URL, trust: URL, config: URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("verifierd-history-\(UUID().uuidString.prefix(8))")
        let trust = folder.appendingPathComponent("trust")
        try FileManager.default.createDirectory(at: trust, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: pki.appendingPathComponent("iaca-p256.pem"),
                                         to: trust.appendingPathComponent("iaca-p256.pem"))
        let config = folder.appendingPathComponent("verifierd.json")
        try Data(#"{"server": {"host": "127.0.0.1", "port": 0}, "trust": {"iacaDirectory": "trust", "pollSeconds": 0}, "admin": {"token": "\#(adminToken)"}}"#.utf8)
            .write(to: config)
        return (folder, trust, config)
    }

    @Test func theHistorySurvivesARestartAndShowsTheCLIsChange() async throws {
        let (folder, _, config) = try Self.fixture()
        defer { try? FileManager.default.removeItem(at: folder) }

        // First life: one change through the admin API.
        var first: Int
        do {
            let serve = try ServeProcess(config: config)
            let port = try serve.port()
            first = try await Self.add("iaca-p384.pem", port: port)
            let history = try await Self.changes(port: port)
            #expect(history.first.map { ($0.version, $0.action) } ?? (0, "") == (first, "add"))
            #expect(history.first?.actor.hasPrefix("admin-token:") == true)
            serve.process.terminate()
            serve.process.waitUntilExit()
        }

        // Between the two: the CLI changes the directory.
        let cli = try CommandLineTests.run(["iaca", "add", "--config", config.path, Self.pki.appendingPathComponent("iaca-p521.pem").path])
        #expect(cli.status == 0, "\(cli.error)")

        // Second life: both changes are listed, newest first, as who made them; versions go on.
        let serve = try ServeProcess(config: config)
        let port = try serve.port()
        let history = try await Self.changes(port: port)
        #expect(history.map(\.action) == ["add", "add"], "\(history)")
        #expect(history.map(\.actor).first == "cli")
        #expect(history.map(\.version) == [first + 1, first], "\(history.map(\.version))")
        let next = try await Self.add("iaca-other.pem", port: port)
        #expect(next == first + 2, "versions start again after a restart: \(next)")
        let after = try await Self.changes(port: port)
        #expect(after.map(\.version) == [first + 2, first + 1, first])
    }

    /// A log line that does not decode (a torn write, an edit by hand) is skipped, the rest still read.
    @Test func anUnreadableLineIsSkipped() async throws {
        let (folder, trust, config) = try Self.fixture()
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = trust.appendingPathComponent(".changes.jsonl")
        try Data("{\"not\": \"a change\"}\n{broken\n".utf8).write(to: log)
        let serve = try ServeProcess(config: config)
        let port = try serve.port()
        #expect(try await Self.changes(port: port).isEmpty)
        let version = try await Self.add("iaca-p384.pem", port: port)
        #expect(try await Self.changes(port: port).map(\.version) == [version])
    }
}
