import ArgumentParser
import Foundation
import PostgresStore
import VerifierService

/// `verifierd store migrate`: creates or updates the PostgreSQL schema (start-up does the same).
struct StoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "store", abstract: "Manage the shared store (store.kind postgres).",
        subcommands: [Migrate.self])

    struct Migrate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Apply the missing schema migrations to the configured PostgreSQL database.",
            discussion: "Safe while replicas run or start: migrations take an advisory lock and each applies once.")
        @OptionGroup var options: ConfigOption

        func run() async throws {
            let configuration = ServiceLoading.configuration(options)
            guard case .postgres(let section) = configuration.store else {
                throw CLIFailure.data("store.kind is memory: there is no schema to migrate (set store.kind to postgres)")
            }
            let logger = ServiceLoading.logger(toStandardError: true)
            let database: PostgresDatabase
            do {
                database = try ServiceStorage.openDatabase(section, logger: logger)
            } catch {
                ServiceLoading.fail(error)
            }
            defer { database.shutdown() }
            do {
                let applied = try await SchemaMigrations.migrate(database)
                print(applied.isEmpty ? "schema is up to date (version \(SchemaMigrations.latestVersion))"
                                      : "applied migrations \(applied.map(String.init).joined(separator: ", ")); schema version \(SchemaMigrations.latestVersion)")
            } catch {
                ServiceLoading.fail(ConfigurationError(key: "store.url", "\(database.configuration.redactedLocation): \(error)"))
            }
        }
    }
}
