import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport

/// The throwaway cluster's tools answer the same wherever the checkout (and so the test process's working
/// directory) lives, and only their standard output is a result.
@Suite(.serialized, .enabled(if: PostgresTestCluster.enabled, "no PostgreSQL binaries (initdb, pg_ctl) found: install Debian's postgresql"))
struct PostgresTestClusterTests {
    /// As root the tools run as `postgres`, which may not enter a root-owned 0700 folder (a home folder, a `mktemp -d`
    /// checkout); as another user the folder is made mode 000 once entered, so that user cannot enter it either.
    @Test func psqlAnswersExactlyFromAWorkingDirectoryTheServerUserCannotEnter() async throws {
        let test = try await TestDatabase.make(migrate: false)
        let locked = FileManager.default.temporaryDirectory.appendingPathComponent("verifierd-locked-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o700])
        let original = FileManager.default.currentDirectoryPath
        defer {
            _ = chdir(original)
            _ = chmod(locked.path, 0o700)
            try? FileManager.default.removeItem(at: locked)
        }
        // The whole test process moves, for as short a time as possible (the other suites use absolute paths).
        try #require(chdir(locked.path) == 0)
        if geteuid() != 0 { _ = chmod(locked.path, 0) }
        let answer = Result { try test.psql("SELECT 40 + 2") }
        let cluster = Result { try test.cluster.makeDatabase() }
        _ = chdir(original)
        #expect(try answer.get() == "42")
        #expect(try cluster.get().hasPrefix("postgres://"))
        // The same query from the checkout answers the same.
        #expect(try test.psql("SELECT 40 + 2") == "42")
    }

    @Test func warningsOnStandardErrorAreNotPartOfTheResult() async throws {
        let test = try await TestDatabase.make(migrate: false)
        _ = try test.psql("""
            CREATE FUNCTION warn_then(value text) RETURNS text LANGUAGE plpgsql AS $$
            BEGIN RAISE WARNING 'printed on standard error'; RETURN value; END $$
            """)
        #expect(try test.psql("SELECT warn_then('the value')") == "the value")
    }

    @Test func aFailingQueryThrowsWithWhatPsqlPrintedOnStandardError() async throws {
        let test = try await TestDatabase.make(migrate: false)
        do {
            let answer = try test.psql("SELECT * FROM no_such_table_here")
            Issue.record("a query on a missing table answered \(answer)")
        } catch {
            let message = String(describing: error)
            #expect(message.contains("psql exited"), "\(message)")
            #expect(message.contains("no_such_table_here"), "the error carries psql's standard error: \(message)")
        }
    }
}

extension PostgresTestClusterTests {
    /// The data directory and the socket live in the cluster's folder, which is never inside the checkout.
    @Test func theClusterFolderIsOutsideTheCheckout() throws {
        let cluster = try PostgresTestCluster.sharedCluster()
        let root = Fixtures.repositoryRoot.standardizedFileURL.path
        #expect(!cluster.folder.standardizedFileURL.path.hasPrefix(root + "/"))
        #expect(FileManager.default.fileExists(atPath: cluster.folder.appendingPathComponent("data/PG_VERSION").path))
    }
}
