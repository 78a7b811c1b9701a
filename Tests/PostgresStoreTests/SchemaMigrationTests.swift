import Foundation
import PostgresStore
import Testing
import TestSupport

@Suite(.serialized, .enabled(if: PostgresTestCluster.enabled, "no PostgreSQL binaries (initdb, pg_ctl) found: install Debian's postgresql"))
struct SchemaMigrationTests {
    @Test func replicasStartingTogetherApplyEachMigrationOnce() async throws {
        let test = try await TestDatabase.make(migrate: false)
        // Eight pools at once, as eight replicas starting together would.
        let results = try await withThrowingTaskGroup(of: [Int].self) { group in
            for _ in 0..<8 {
                group.addTask {
                    let database = try TestDatabase.open(test.url)
                    defer { database.shutdown() }
                    return try await SchemaMigrations.migrate(database)
                }
            }
            var all: [[Int]] = []
            for try await applied in group { all.append(applied) }
            return all
        }
        #expect(results.filter { !$0.isEmpty } == [Array(1...SchemaMigrations.latestVersion)], "one run applied them")
        #expect(try test.psql("SELECT count(*) FROM verifierd_schema_migrations") == "\(SchemaMigrations.latestVersion)")
        #expect(try await SchemaMigrations.migrate(test.database).isEmpty, "a second run has nothing to do")
    }

    @Test func aNewerSchemaIsRefusedNotWritten() async throws {
        let test = try await TestDatabase.make()
        _ = try test.psql("INSERT INTO verifierd_schema_migrations (version, name) VALUES (999, 'from the future')")
        await #expect(throws: PostgresStoreError.self) { try await SchemaMigrations.migrate(test.database) }
        do {
            try await SchemaMigrations.migrate(test.database)
        } catch {
            #expect("\(error)".contains("newer than this verifierd"))
        }
    }

    @Test func anUnreachableDatabaseFailsWithinTheDeadline() async throws {
        let database = try TestDatabase.open("postgres://verifierd@127.0.0.1:\(PostgresTestCluster.freePort())/none",
                                             timeout: .milliseconds(500))
        defer { database.shutdown() }
        let started = ContinuousClock.now
        await #expect(throws: PostgresStoreError.self) { try await SchemaMigrations.migrate(database) }
        #expect(ContinuousClock.now - started < .seconds(5))
        #expect(database.unavailableReason != nil)
    }

    @Test func urlsAreParsedStrictly() throws {
        let location = try PostgresStoreConfiguration.parse(url: "postgresql://app%40x:p%2Fw@db.internal:6543/verifier")
        #expect(location == .init(host: "db.internal", port: 6543, username: "app@x", password: "p/w", database: "verifier"))
        #expect(try PostgresStoreConfiguration.parse(url: "postgres://u@h/d").port == 5432)
        for bad in ["mysql://u@h/d", "postgres://h/d", "postgres://u@/d", "postgres://u@h/d?sslmode=require", "postgres://u@h/a/b", "not a url"] {
            #expect(throws: PostgresStoreError.self, "\(bad)") { try PostgresStoreConfiguration.parse(url: bad) }
        }
    }
}
