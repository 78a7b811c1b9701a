import Foundation
import Logging
import Testing
import TestSupport
@testable import TrustManagement
@testable import VerifierConfiguration
@testable import VerifierService

/// Scheduled refreshes of a list of trusted entities shared by three replicas on one database, as VICALs are: one
/// fetch per due refresh, the import a trust change every replica takes over, the outcome kept in the database. A
/// providers list (WRPAC, WRPRC), kept in each process's memory, is fetched by every replica instead.
@Suite(.serialized, .enabled(if: PostgresTestCluster.enabled, "no PostgreSQL binaries (initdb, pg_ctl) found: install Debian's postgresql"))
struct ReplicaLoTERefreshTests {
    static let port = 18623

    static func replica(_ index: Int, url: String, key: URL, folder: URL, clock: ManualClock, kind: String = "mdl") async throws -> VerifierService {
        let trust = folder.appendingPathComponent("trust-\(index)")
        try FileManager.default.createDirectory(at: trust, withIntermediateDirectories: true)
        var config: [String: Any] = [
            "server": ["host": "127.0.0.1", "port": 0],
            "trust": ["iacaDirectory": trust.path, "pollSeconds": 0,
                      "loteSources": [["name": "eu", "url": "http://127.0.0.1:\(port)/lists/eu.jwt", "kind": kind,
                                       "signerAnchors": [LoTETrustSourceTests.operatorCA]]]],
            "outbound": ["allowedDestinations": ["127.0.0.1:\(port)"], "publicDestinations": false],
            "admin": ["token": ServiceHarness.adminToken],
            "store": ["kind": "postgres", "url": url, "sessionKeyFile": key.path, "operationTimeoutMs": 2000],
        ]
        if kind == "wrpac" {
            let demo = Fixtures.testVectors.appendingPathComponent("demo/keys")
            config["readerAuth"] = ["signingKey": demo.appendingPathComponent("reader-auth.pem").path,
                                    "certificateChain": demo.appendingPathComponent("reader-auth-chain.pem").path]
        }
        let file = folder.appendingPathComponent("replica-\(index).json")
        try JSONSerialization.data(withJSONObject: config).write(to: file)
        let configuration = try ConfigurationLoader.load(file: file, environment: [:])
        return try await VerifierService.open(configuration: configuration, logger: Logger(label: "replica-\(index)"),
                                              now: { clock.now })
    }

    /// `count` replicas of a source `eu` of `kind` on one new database, the list `list` served on loopback.
    static func replicas(_ count: Int, kind: String, list: String, folder: URL)
        async throws -> (cluster: PostgresTestCluster, url: String, server: LoopbackFileServer, replicas: [VerifierService])
    {
        let cluster = try PostgresTestCluster.sharedCluster()
        let url = try cluster.makeDatabase()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let key = folder.appendingPathComponent("session.key")
        try Data(Data((0..<32).map { UInt8($0) }).base64EncodedString().utf8).write(to: key)
        let server = try LoopbackFileServer(port: Self.port, files: ["/lists/eu.jwt": try LoTETrustSourceTests.list(list)])
        let clock = ManualClock(TestClock.date("2030-01-01T00:00:00Z"))
        var replicas: [VerifierService] = []
        for index in 0..<count {
            replicas.append(try await Self.replica(index, url: url, key: key, folder: folder, clock: clock, kind: kind))
        }
        return (cluster, url, server, replicas)
    }

    @Test func oneReplicaImportsADueListAndEveryReplicaTrustsIt() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("verifierd-lote-replicas-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (cluster, url, server, replicas) = try await Self.replicas(3, kind: "mdl", list: "mdl-valid", folder: folder)
        let source = try #require(replicas[0].loteRefresher.sources.first)
        #expect(source.name == "lote:eu")

        // Due on all three at once: one claims, fetches and imports; the others do not fetch.
        let outcomes = await withTaskGroup(of: String?.self) { group in
            for replica in replicas { group.addTask { await replica.loteRefresher.refreshIfDue(source).outcome?.outcome } }
            var all: [String?] = []
            for await outcome in group { all.append(outcome) }
            return all
        }
        #expect(outcomes.compactMap { $0 } == ["imported"], "\(outcomes)")
        #expect(server.requests("/lists/eu.jwt") == 1, "one fetch for three replicas")
        // Every replica takes the import over from the shared set and knows the outcome; nobody refetches.
        for replica in replicas {
            let snapshot = try await replica.iacaTrust.reload(actor: "test")
            #expect(snapshot.lists["lote:eu"]?.issueID == 3)
            #expect(snapshot.anchors.contains { $0.metadata.source == "lote:eu" && $0.metadata.purposes == [.issuance] })
            #expect(await replica.loteRefresher.refreshIfDue(source).outcome == nil)
            #expect(replica.loteRefresher.lastOutcome("lote:eu")?.outcome == "imported")
        }
        #expect(server.requests("/lists/eu.jwt") == 1)
        // The VICAL refresher's records are apart: the list source has its own row.
        #expect(try cluster.psql(String(url.split(separator: "/").last ?? ""),
                                 "SELECT outcome FROM verifierd_vical_refreshes WHERE source = 'lote:eu'") == "imported")
        for replica in replicas { replica.store.database?.shutdown() }
        await server.stop()
    }

    /// A WRPAC providers list lives in each process's memory: every replica fetches and imports it (no claim in the
    /// ledger), and each then knows its own list in force.
    @Test func everyReplicaFetchesAProvidersList() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("verifierd-lote-providers-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (cluster, url, server, replicas) = try await Self.replicas(2, kind: "wrpac", list: "wrpac-valid", folder: folder)
        let source = try #require(replicas[0].loteRefresher.sources.first)
        for replica in replicas {
            #expect(await replica.loteRefresher.refreshIfDue(source).outcome?.outcome == "imported")
            let listSource = try #require(replica.loteAdmin.sources.first)
            #expect(replica.loteAdmin.importer.inForce(listSource)?.issueID == 1)
        }
        #expect(server.requests("/lists/eu.jwt") == 2, "each replica fetches its own")
        #expect(try cluster.psql(String(url.split(separator: "/").last ?? ""),
                                 "SELECT count(*) FROM verifierd_vical_refreshes WHERE source = 'lote:eu'") == "0")
        for replica in replicas { replica.store.database?.shutdown() }
        await server.stop()
    }
}
