import Foundation
import Testing
import TestSupport
import VerifierService

/// `verifierd store migrate` and `verifierd iaca export|import --dir` against a real database, and the `store`
/// configuration's checks.
@Suite(.serialized, .enabled(if: PostgresTestCluster.enabled, "no PostgreSQL binaries (initdb, pg_ctl) found: install Debian's postgresql"))
struct StoreCommandLineTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("verifierd-store-cli-\(UUID().uuidString.prefix(8))")

    func config(url: String) throws -> URL {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let key = folder.appendingPathComponent("session.key")
        try Data(Data(repeating: 5, count: 32).base64EncodedString().utf8).write(to: key)
        return try ReplicaTests.configuration(url: url, key: key, trust: folder.appendingPathComponent("trust"),
                                              requireIssuedNonce: false, into: folder.appendingPathComponent("config.json"))
    }

    @Test func migrateExportAndImportMoveASetBetweenDirectoryAndDatabase() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cluster = try PostgresTestCluster.sharedCluster()
        let url = try cluster.makeDatabase()
        let firstConfig = try config(url: url).path
        let migrate = try CommandLineTests.run(["store", "migrate", "--config", firstConfig])
        #expect(migrate.status == 0, "\(migrate.error)")
        #expect(migrate.output.contains("applied migrations 1"))
        #expect(try CommandLineTests.run(["store", "migrate", "--config", firstConfig]).output.contains("up to date"))
        // The first use seeds the database from the demo folder; add one, export, then import into a second database.
        let pem = Fixtures.testVectors.appendingPathComponent("pki/iaca-p384.pem").path
        let added = try CommandLineTests.run(["iaca", "add", "--doc-type", "org.iso.18013.5.1.mDL", pem, "--config", firstConfig])
        #expect(added.status == 0, "\(added.error)")
        let exported = folder.appendingPathComponent("exported")
        let export = try CommandLineTests.run(["iaca", "export", "--dir", exported.path, "--config", firstConfig])
        #expect(export.status == 0 && export.output.contains("exported 2 anchors"), "\(export.output)\(export.error)")
        let database = url.split(separator: "/").last.map(String.init) ?? ""
        #expect(try cluster.psql(database, "SELECT max(version) FROM verifierd_trust_versions") == "2")

        let second = try cluster.makeDatabase()
        let secondConfig = try config(url: second).path
        // An empty folder is refused; the exported one is imported as one new version with its scopes.
        let empty = folder.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        #expect(try CommandLineTests.run(["iaca", "import", "--dir", empty.path, "--config", secondConfig]).status != 0)
        let imported = try CommandLineTests.run(["iaca", "import", "--dir", exported.path, "--config", secondConfig])
        #expect(imported.status == 0, "\(imported.error)")
        let list = try CommandLineTests.run(["iaca", "list", "--config", secondConfig])
        #expect(list.output.split(separator: "\n").count == 2)
        #expect(list.output.contains("docTypes=org.iso.18013.5.1.mDL"), "the scope travelled with the anchor")
        let secondName = second.split(separator: "/").last.map(String.init) ?? ""
        #expect(try cluster.psql(secondName, "SELECT action FROM verifierd_trust_versions ORDER BY version DESC LIMIT 1") == "import")
    }

    @Test func theStoreSectionIsCheckedKeyByKey() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let base = #"{"server": {"port": 0}, "trust": {"iacaDirectory": "t"}, "store": %@}"#
        func load(_ store: String) -> String? {
            let file = folder.appendingPathComponent("c-\(UUID().uuidString.prefix(6)).json")
            try? Data(String(format: base, store).utf8).write(to: file)
            do {
                _ = try ConfigurationLoader.load(file: file, environment: [:])
                return nil
            } catch {
                return error.key
            }
        }
        #expect(load(#"{"kind": "memory"}"#) == nil)
        #expect(load(#"{"kind": "postgres", "url": "postgres://u@h/d", "sessionKeyFile": "k"}"#) == nil)
        #expect(load(#"{"kind": "postgres", "sessionKeyFile": "k"}"#) == "store.url")
        #expect(load(#"{"kind": "postgres", "url": "postgres://u@h/d"}"#) == "store.sessionKeyFile")
        #expect(load(#"{"kind": "redis"}"#) == "store.kind")
        #expect(load(#"{"url": "postgres://u@h/d"}"#) == "store.kind")
        #expect(load(#"{"kind": "memory", "url": "postgres://u@h/d"}"#) == "store.url")
        #expect(load(#"{"kind": "postgres", "url": "u", "sessionKeyFile": "k", "tls": {"mode": "sometimes"}}"#) == "store.tls.mode")
        #expect(load(#"{"kind": "postgres", "url": "u", "sessionKeyFile": "k", "poolSize": 0}"#) == "store.poolSize")
        // The URL and key are checked when the store opens, naming the key too.
        var configuration = try ConfigurationLoader.load(file: Fixtures.repositoryRoot.appendingPathComponent("config/verifierd.json"),
                                                         environment: [:])
        configuration.store = .postgres(.init(url: "mysql://u@h/d", sessionKeyFile: folder.appendingPathComponent("absent")))
        guard case .postgres(let section) = configuration.store else { return }
        #expect(throws: ConfigurationError.self) { _ = try ServiceStorage.openDatabase(section, logger: .init(label: "t")) }
    }
}
