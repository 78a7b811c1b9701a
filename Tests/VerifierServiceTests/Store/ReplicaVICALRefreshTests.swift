import Foundation
import Logging
import Testing
import TestSupport
@testable import TrustManagement
@testable import VerifierConfiguration
@testable import VerifierService

/// Scheduled VICAL refreshes shared by three replicas on one database (three services in this process, each with its
/// own pool, on the 2030 clock the VICAL vectors are dated for): one fetch per due refresh, the outcome and ETag
/// kept in the database so that a restarted replica neither refetches nor forgets them.
@Suite(.serialized, .enabled(if: PostgresTestCluster.enabled, "no PostgreSQL binaries (initdb, pg_ctl) found: install Debian's postgresql"))
struct ReplicaVICALRefreshTests {
    static let vicals = Fixtures.testVectors.appendingPathComponent("vical")

    /// A service on the database, with the `test` VICAL source on the loopback list server.
    static func replica(_ index: Int, url: String, key: URL, folder: URL, listPort: Int, clock: ManualClock) async throws -> VerifierService {
        let trust = folder.appendingPathComponent("trust-\(index)")
        try FileManager.default.createDirectory(at: trust, withIntermediateDirectories: true)
        let seed = ServiceHarness.pki.appendingPathComponent("iaca-p521.pem")
        try? FileManager.default.copyItem(at: seed, to: trust.appendingPathComponent(seed.lastPathComponent))
        let config: [String: Any] = [
            "server": ["host": "127.0.0.1", "port": 0],
            "apple": ["merchantId": "com.example.verifierd.test", "teamId": "VERIFIERD1",
                      "encryptionKeys": [ServiceHarness.appleVectors.appendingPathComponent("keys/merchant-1.pem").path]],
            "trust": ["iacaDirectory": trust.path, "pollSeconds": 0,
                      "vicalSigners": ["test": vicals.appendingPathComponent("signer-root.pem").path],
                      "vicalSources": [["name": "test", "url": "http://127.0.0.1:\(listPort)/vical.cbor", "refreshHours": 24]]],
            "outbound": ["allowedDestinations": ["127.0.0.1:\(listPort)"]],
            "readerTokens": ["brandId": "BRAND", "keyId": "KEY1",
                             "signingKey": Fixtures.testVectors.appendingPathComponent("demo/keys/reader-token.pem").path,
                             "clientTokens": [ServiceHarness.clientToken]],
            "admin": ["token": ServiceHarness.adminToken],
            "store": ["kind": "postgres", "url": url, "sessionKeyFile": key.path, "operationTimeoutMs": 2000],
        ]
        let file = folder.appendingPathComponent("replica-\(index).json")
        try JSONSerialization.data(withJSONObject: config).write(to: file)
        let configuration = try ConfigurationLoader.load(file: file, environment: [:])
        return try await VerifierService.open(configuration: configuration, logger: Logger(label: "replica-\(index)"),
                                              now: { clock.now })
    }

    @Test func oneReplicaRefreshesADueSourceAndTheOthersAdoptItsOutcomeAndETag() async throws {
        let cluster = try PostgresTestCluster.sharedCluster()
        let url = try cluster.makeDatabase()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("verifierd-vical-replicas-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let key = folder.appendingPathComponent("session.key")
        try Data(Data((0..<32).map { UInt8($0) }).base64EncodedString().utf8).write(to: key)
        let list = try VICALAdminTests.ListServer(Array(try Data(contentsOf: Self.vicals.appendingPathComponent("test-vical-10.cbor"))))
        defer { Task { await list.server.shutdown() } }
        let clock = ManualClock(TestClock.date("2030-01-01T00:00:00Z"))
        var replicas: [VerifierService] = []
        for index in 0..<3 {
            replicas.append(try await Self.replica(index, url: url, key: key, folder: folder, listPort: list.port, clock: clock))
        }
        let source = try #require(replicas[0].configuration.trust.vicalSources.first)
        func requests() -> [String?] { list.state.requests.withLock { $0 } }

        // 1. Due on all three at once: one claims, fetches and imports; the others do not fetch.
        let outcomes = await withTaskGroup(of: String?.self) { group in
            for replica in replicas { group.addTask { await replica.vicalRefresher.refreshIfDue(source).outcome?.outcome } }
            var all: [String?] = []
            for await outcome in group { all.append(outcome) }
            return all
        }
        #expect(outcomes.compactMap { $0 } == ["imported"], "\(outcomes)")
        #expect(requests().count == 1, "one fetch for three replicas")
        // Not due again for 24 hours: nobody fetches, and every replica knows the last outcome.
        for replica in replicas {
            #expect(await replica.vicalRefresher.refreshIfDue(source).outcome == nil)
            #expect(replica.vicalRefresher.lastOutcome("test")?.outcome == "imported")
        }
        #expect(requests().count == 1)

        // 2. A replica started now (a restart) finds the list in the shared trust set and the refresh done: no fetch.
        let restarted = try await Self.replica(3, url: url, key: key, folder: folder, listPort: list.port, clock: clock)
        #expect(restarted.iacaTrust.snapshot.lists["test"] != nil, "the imported list is in the shared trust set")
        #expect(await restarted.vicalRefresher.refreshIfDue(source).outcome == nil)
        #expect(restarted.vicalRefresher.lastOutcome("test")?.outcome == "imported")
        #expect(requests().count == 1)

        // 3. A day later the restarted replica refreshes with the ETag another replica stored: 304, nothing written.
        clock.advance(by: 24 * 3600 + 1)
        #expect(await restarted.vicalRefresher.refreshIfDue(source).outcome?.outcome == "not-modified")
        #expect(requests().count == 2)
        #expect(requests().last.flatMap { $0 } != nil, "the conditional fetch sent the stored ETag")
        for replica in replicas { #expect(await replica.vicalRefresher.refreshIfDue(source).outcome == nil) }
        #expect(requests().count == 2)

        // 4. A failure is shared too: the others report it (for /readyz) and retry on the shared schedule.
        list.state.body.withLock { body in
            body = Array(try! Data(contentsOf: Self.vicals.appendingPathComponent("test-vical-11.cbor")))
            body[body.count - 2] ^= 0x01
        }
        clock.advance(by: 24 * 3600 + 1)
        #expect(await replicas[1].vicalRefresher.refreshIfDue(source).outcome?.outcome == "refused")
        #expect(await replicas[2].vicalRefresher.refreshIfDue(source).outcome == nil, "the retry is not due yet (60 s)")
        #expect(replicas[2].vicalRefresher.lastOutcome("test")?.outcome == "refused")
        #expect(requests().count == 3)
        clock.advance(by: 61)
        #expect(await replicas[2].vicalRefresher.refreshIfDue(source).outcome?.outcome == "refused", "one replica retries")
        #expect(await replicas[0].vicalRefresher.refreshIfDue(source).outcome == nil, "the next retry waits 120 s")
        #expect(requests().count == 4)
        #expect(try cluster.psql(String(url.split(separator: "/").last ?? ""),
                                 "SELECT outcome || ' ' || consecutive_failures FROM verifierd_vical_refreshes WHERE source = 'test'")
                == "refused 2")
        // 5. Without the database (this replica's pool closed: no record, and a claim cannot be refused), a replica
        // keeps to its own last refresh instead of fetching on every pass.
        replicas[0].store.database?.shutdown()
        #expect(await replicas[0].vicalRefresher.refreshIfDue(source).outcome == nil)
        #expect(requests().count == 4)
        for replica in replicas + [restarted] { replica.store.database?.shutdown() }
    }
}
