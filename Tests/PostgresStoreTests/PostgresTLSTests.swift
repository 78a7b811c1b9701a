import Foundation
import Logging
import PostgresNIO
@testable import PostgresStore
import Testing
import TestSupport

/// `store.tls` against a real PostgreSQL server with TLS: a throwaway CA and server certificate made now by
/// `tls_test_pki.py` (Python cryptography), for `localhost` and `127.0.0.1` only. The server also listens on
/// 127.0.0.2, an address its certificate does not name.
@Suite(.serialized, .enabled(if: PostgresTestCluster.enabled, "no PostgreSQL binaries (initdb, pg_ctl) found: install Debian's postgresql"))
struct PostgresTLSTests {
    /// The PKI and a server with `ssl=on`, made once for the suite.
    struct Server: Sendable {
        let pki: URL
        let cluster: PostgresTestCluster
        let database: String

        init() throws {
            pki = FileManager.default.temporaryDirectory.appendingPathComponent("verifierd-pg-pki-\(UUID().uuidString)")
            let made = try ProcessRunner.run(["python3", Fixtures.testVectors.appendingPathComponent("generator/tls_test_pki.py").path,
                                              pki.path])
            guard made.status == 0 else { throw PKIFailed(message: made.error) }
            let certificate = try [UInt8](Data(contentsOf: pki.appendingPathComponent("server.pem")))
            let key = try [UInt8](Data(contentsOf: pki.appendingPathComponent("server.key")))
            // Relative paths are read from the data folder, one level below the files.
            cluster = try PostgresTestCluster(settings: ["ssl=on", "ssl_cert_file=../server.pem", "ssl_key_file=../server.key",
                                                         "listen_addresses=127.0.0.1,127.0.0.2"],
                                              files: ["server.pem": certificate, "server.key": key])
            let url = try cluster.makeDatabase()
            database = String(url.split(separator: "/").last ?? "")
        }
    }

    static let server = Result { try Server() }

    func open(_ mode: PostgresStoreConfiguration.TLSMode, ca: String? = nil, host: String = "127.0.0.1",
              cluster: PostgresTestCluster? = nil) throws -> PostgresStore.PostgresDatabase {
        let server = try Self.server.get()
        let target = cluster ?? server.cluster
        return try PostgresStore.PostgresDatabase(configuration: PostgresStoreConfiguration(
            host: host, port: target.port, username: PostgresTestCluster.user, database: cluster == nil ? server.database : "postgres",
            poolSize: 1, tlsMode: mode, tlsCAFile: ca.map { server.pki.appendingPathComponent($0) },
            sessionKey: try SessionSealingKey(bytes: Array(0..<32)), operationTimeout: .seconds(2)),
            logger: Logger(label: "tls-test"))
    }

    /// Whether this connection's backend speaks TLS, as the server sees it.
    func encrypted(_ database: PostgresStore.PostgresDatabase) async throws(PostgresStoreError) -> Bool {
        let logger = database.logger
        return try await database.perform("ssl") { client -> Bool in
            let rows = try await client.query("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()", logger: logger)
            for try await ssl in rows.decode(Bool.self) { return ssl }
            return false
        }
    }

    @Test func requireVerifiesTheServerWithTheGivenCA() async throws {
        let database = try open(.require, ca: "server-ca.pem")
        defer { database.shutdown() }
        #expect(try await encrypted(database))
        try await SchemaMigrations.migrate(database)
    }

    @Test func requireRefusesAServerCertifiedByAnotherCA() async throws {
        // client-ca.pem is a real CA of the same PKI, not the one that certified the server.
        let database = try open(.require, ca: "client-ca.pem")
        defer { database.shutdown() }
        await #expect(throws: PostgresStoreError.self) { _ = try await encrypted(database) }
        #expect(database.unavailableReason != nil)
    }

    @Test func requireRefusesACertificateForAnotherName() async throws {
        // The right CA, but 127.0.0.2 is not in the certificate (verify-full, not only verify-ca).
        let database = try open(.require, ca: "server-ca.pem", host: "127.0.0.2")
        defer { database.shutdown() }
        await #expect(throws: PostgresStoreError.self) { _ = try await encrypted(database) }
        // The same server by a name its certificate holds.
        let named = try open(.require, ca: "server-ca.pem", host: "localhost")
        defer { named.shutdown() }
        #expect(try await encrypted(named))
    }

    @Test func requireWithoutACAFileUsesTheSystemRootsWhichDoNotKnowTheTestCA() async throws {
        let database = try open(.require)
        defer { database.shutdown() }
        await #expect(throws: PostgresStoreError.self) { _ = try await encrypted(database) }
    }

    @Test func requireRefusesAServerWithoutTLS() async throws {
        let plain = try PostgresTestCluster.sharedCluster()
        let database = try open(.require, ca: "server-ca.pem", cluster: plain)
        defer { database.shutdown() }
        await #expect(throws: PostgresStoreError.self) { _ = try await encrypted(database) }
    }

    @Test func preferEncryptsWhenOfferedAndDisableNever() async throws {
        let preferred = try open(.prefer)
        defer { preferred.shutdown() }
        #expect(try await encrypted(preferred))
        let disabled = try open(.disable)
        defer { disabled.shutdown() }
        #expect(try await encrypted(disabled) == false)
    }

    @Test func anUnreadableCAFileIsAConfigurationError() throws {
        #expect(throws: PostgresStoreError.configuration(setting: "store.tls.caFile",
                                                         reason: "cannot read certificates from \((try Self.server.get()).pki.appendingPathComponent("missing.pem").path)")) {
            _ = try open(.require, ca: "missing.pem")
        }
    }
}

struct PKIFailed: Error, CustomStringConvertible {
    let message: String
    var description: String { "tls_test_pki.py failed: \(message)" }
}
