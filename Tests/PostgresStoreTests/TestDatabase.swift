import Foundation
import Logging
import PostgresStore
import TestSupport

/// A fresh database on the shared throwaway server, migrated, with a pool for the code under test.
struct TestDatabase {
    let cluster: PostgresTestCluster
    let url: String
    let database: PostgresDatabase

    static let key: [UInt8] = Array(0..<32)

    static func make(migrate: Bool = true, key: [UInt8] = key, timeout: Duration = .seconds(5)) async throws -> TestDatabase {
        let cluster = try PostgresTestCluster.sharedCluster()
        let url = try cluster.makeDatabase()
        let database = try open(url, key: key, timeout: timeout)
        if migrate { try await SchemaMigrations.migrate(database) }
        return TestDatabase(cluster: cluster, url: url, database: database)
    }

    static func open(_ url: String, key: [UInt8] = key, timeout: Duration = .seconds(5), poolSize: Int = 8,
                     probeInterval: Duration = .milliseconds(500)) throws -> PostgresDatabase {
        let location = try PostgresStoreConfiguration.parse(url: url)
        return try PostgresDatabase(configuration: PostgresStoreConfiguration(
            host: location.host, port: location.port, username: location.username, database: location.database,
            poolSize: poolSize, sessionKey: try SessionSealingKey(bytes: key), operationTimeout: timeout,
            probeInterval: probeInterval),
            logger: Logger(label: "test"))
    }

    var name: String { String(url.split(separator: "/").last ?? "") }

    func psql(_ sql: String) throws -> String { try cluster.psql(name, sql) }
}
