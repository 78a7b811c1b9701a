import Foundation
import Logging
import PostgresStore
import SessionStore
import TrustManagement
import TrustStore

/// Where the service keeps what outlives a request: one-time sessions and nonces, and the trust set.
///
/// `memory` (the default) is one process with the local trust directory. `postgres` shares all three between
/// replicas: sessions and nonces in one table taken atomically, the trust set as versions in the database,
/// seeded from the trust directory when the database has none yet.
public struct ServiceStorage: Sendable {
    public let sessions: any SessionStore
    public let trust: LiveTrustSet
    /// The database, with the PostgreSQL store.
    public let database: PostgresDatabase?
    /// The database's trust set, with the PostgreSQL store.
    public let sharedTrust: PostgresTrustSet?
    /// The SD-JWT VC issuer anchors (`sdJwtVc`), kept like the IACAs: the directory, or the database's own table of
    /// versions with the PostgreSQL store; nil without the section.
    public var sdJwtVcIssuers: LiveTrustSet?
    public var sharedSDJWTVCIssuers: PostgresTrustSet?

    /// The in-memory store and the trust directory (seeded from `trust.seedDirectory` when absent).
    public static func memory(_ configuration: ServiceConfiguration, logger: Logger,
                              sessions: (any SessionStore)? = nil) throws(ConfigurationError) -> ServiceStorage {
        let logger = configuration.logging.applied(to: logger)
        if let problem = TrustDirectoryPreflight.problem(directory: configuration.trust.iacaDirectory,
                                                         seed: configuration.trust.seedDirectory) {
            throw problem
        }
        let trust: LiveTrustSet
        do {
            trust = try LiveTrustSet(directory: TrustDirectory(url: configuration.trust.iacaDirectory),
                                          seed: configuration.trust.seedDirectory, logger: logger)
        } catch {
            throw ConfigurationError(key: "trust.iacaDirectory", error.description)
        }
        let sessions = sessions ?? InMemorySessionStore(
            maximumSessions: configuration.web?.maxSessions ?? ServiceConfiguration.Web.defaultMaxSessions,
            maximumBytes: configuration.web?.maxSessionBytes ?? ServiceConfiguration.Web.defaultMaxSessionBytes,
            maximumRecordBytes: SessionAdmission.maximumRecordBytes,
            tombstoneSeconds: TimeInterval(configuration.web?.sessionTTLSeconds ?? 300))
        var store = ServiceStorage(sessions: sessions, trust: trust, database: nil, sharedTrust: nil)
        if let section = configuration.sdJwtVc {
            try preflightIssuers(section)
            do {
                store.sdJwtVcIssuers = try LiveTrustSet(directory: TrustDirectory(url: section.issuerDirectory),
                                                             seed: section.seedDirectory, logger: logger)
            } catch {
                throw ConfigurationError(key: "sdJwtVc.issuerDirectory", error.description)
            }
        }
        return store
    }

    /// The configured store, ready: with PostgreSQL, the pool started, the schema migrated (`migrate: false`
    /// only checks that the database answers) and the trust set read (seeded from the directory when empty).
    public static func open(_ configuration: ServiceConfiguration, logger: Logger, migrate: Bool = true)
        async throws(ConfigurationError) -> ServiceStorage
    {
        guard case .postgres(let section) = configuration.store else { return try memory(configuration, logger: logger) }
        let logger = configuration.logging.applied(to: logger)
        let database = try openDatabase(section, logger: logger)
        do {
            if migrate {
                try await SchemaMigrations.migrate(database)
            }
        } catch {
            database.shutdown()
            throw ConfigurationError(key: "store.url", "\(database.configuration.redactedLocation): \(error)")
        }
        let directory = TrustDirectory(url: configuration.trust.iacaDirectory)
        let shared = PostgresTrustSet(database: database)
        let initial: VersionedTrustSet
        do throws(TrustDirectoryUpdateError<Never>) {
            if try await shared.latestVersion() == 0 {
                // The first replica seeds the database from its directory (or the directory's seed).
                let seed = (try? directory.load()) ?? configuration.trust.seedDirectory.flatMap { try? AnchorFiles.load(from: $0) }
                if let seed, try await shared.seedIfEmpty(seed, actor: "seed:\(directory.url.path)") {
                    logger.notice("trust set seeded into the database", metadata: ["anchorCount": .stringConvertible(seed.anchors.count)])
                }
            }
            initial = try await shared.latest()
        } catch {
            database.shutdown()
            switch error {
            case .storage(let reason): throw ConfigurationError(key: "store.url", "cannot read the trust set: \(reason)")
            }
        }
        let trust = LiveTrustSet(shared: shared, initial: initial, directory: directory, logger: logger)
        var issuers: (LiveTrustSet, PostgresTrustSet)?
        if let section = configuration.sdJwtVc {
            do {
                issuers = try await sharedIssuers(section, database: database, logger: logger)
            } catch {
                database.shutdown()
                throw error
            }
        }
        let sessions = PostgresSessionStore(
            database: database,
            maximumSessions: configuration.web?.maxSessions ?? ServiceConfiguration.Web.defaultMaxSessions,
            maximumRecordBytes: SessionAdmission.maximumRecordBytes,
            tombstoneSeconds: 3600)
        var store = ServiceStorage(sessions: sessions, trust: trust, database: database, sharedTrust: shared)
        store.sdJwtVcIssuers = issuers?.0
        store.sharedSDJWTVCIssuers = issuers?.1
        return store
    }

    /// The pool for `store` (not yet connected); errors name the setting.
    public static func openDatabase(_ section: ServiceConfiguration.Postgres, logger: Logger)
        throws(ConfigurationError) -> PostgresDatabase
    {
        do throws(PostgresStoreError) {
            let location = try PostgresStoreConfiguration.parse(url: section.url)
            var password = location.password
            if let file = section.passwordFile {
                let text: String
                do throws(ConfigurationError) {
                    text = try ConfiguredFile.text(file, key: "store.passwordFile")
                } catch {
                    throw PostgresStoreError.configuration(setting: "store.passwordFile", reason: error.reason)
                }
                password = text.trimmingCharacters(in: .newlines)
            }
            guard let mode = PostgresStoreConfiguration.TLSMode(rawValue: section.tlsMode) else {
                throw PostgresStoreError.configuration(setting: "store.tls.mode", reason: "unknown mode \(section.tlsMode)")
            }
            let configuration = PostgresStoreConfiguration(
                host: location.host, port: location.port, username: location.username, password: password,
                database: location.database, poolSize: section.poolSize, tlsMode: mode, tlsCAFile: section.tlsCAFile,
                sessionKey: try SessionSealingKey(file: section.sessionKeyFile),
                operationTimeout: .milliseconds(section.operationTimeoutMs))
            return try PostgresDatabase(configuration: configuration, logger: logger)
        } catch {
            switch error {
            case .configuration(let setting, let reason): throw ConfigurationError(key: setting, reason)
            default: throw ConfigurationError(key: "store.url", error.description)
            }
        }
    }

    /// The SD-JWT VC issuer directory can be read or made from its seed.
    static func preflightIssuers(_ section: ServiceConfiguration.SDJWTVC) throws(ConfigurationError) {
        if let problem = TrustDirectoryPreflight.problem(directory: section.issuerDirectory, seed: section.seedDirectory,
                                                         directoryKey: "sdJwtVc.issuerDirectory", seedKey: "sdJwtVc.seedDirectory",
                                                         what: "SD-JWT VC issuer CA certificates") {
            throw problem
        }
    }

    /// The database's SD-JWT VC issuer set, seeded by the first replica from its directory (or the directory's seed),
    /// as the IACA set is.
    static func sharedIssuers(_ section: ServiceConfiguration.SDJWTVC, database: PostgresDatabase, logger: Logger)
        async throws(ConfigurationError) -> (LiveTrustSet, PostgresTrustSet)
    {
        let directory = TrustDirectory(url: section.issuerDirectory)
        let shared = PostgresTrustSet(database: database, table: .sdJwtVcIssuers)
        do throws(TrustDirectoryUpdateError<Never>) {
            if try await shared.latestVersion() == 0 {
                let seed = (try? directory.load()) ?? section.seedDirectory.flatMap { try? AnchorFiles.load(from: $0) }
                if let seed, try await shared.seedIfEmpty(seed, actor: "seed:\(directory.url.path)") {
                    logger.notice("SD-JWT VC issuer set seeded into the database", metadata: ["anchorCount": .stringConvertible(seed.anchors.count)])
                }
            }
            let initial = try await shared.latest()
            return (LiveTrustSet(shared: shared, initial: initial, directory: directory, logger: logger), shared)
        } catch {
            switch error {
            case .storage(let reason): throw ConfigurationError(key: "store.url", "cannot read the SD-JWT VC issuer set: \(reason)")
            }
        }
    }

    /// Keeps this replica's trust snapshots (the IACAs and, when configured, the SD-JWT VC issuers) on the database's
    /// latest versions (LISTEN/NOTIFY and a poll), until the task is cancelled. Does nothing with the memory store.
    public func followSharedTrust(logger: Logger) async {
        guard let sharedTrust else { return }
        var followed: [(PostgresTrustSet, LiveTrustSet)] = [(sharedTrust, trust)]
        if let shared = sharedSDJWTVCIssuers, let issuers = sdJwtVcIssuers { followed.append((shared, issuers)) }
        let managers = followed
        await TrustSetWatcher(sets: managers.map(\.0)).run { sharedTrust, version in
            guard let trust = managers.first(where: { $0.0 === sharedTrust })?.1, version > trust.snapshot.version else { return }
            do {
                let latest = try await sharedTrust.latest()
                if let snapshot = trust.adopt(latest, actor: "replication") {
                    logger.info("trust set version adopted", metadata: ["version": .stringConvertible(snapshot.version),
                                                                         "set": "\(sharedTrust.table.name)"])
                }
            } catch {
                logger.error("cannot read the trust set version", metadata: ["version": .stringConvertible(version), "reason": "\(error)"])
            }
        }
    }
}
