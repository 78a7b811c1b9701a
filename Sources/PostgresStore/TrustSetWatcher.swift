import Foundation
import Logging
import PostgresNIO

/// Tells a replica when a shared trust set has a new version: at once through `LISTEN` on each set's channel (all on
/// one connection, so following the IACAs and the SD-JWT VC issuers holds one connection of the pool, not two), and by
/// polling each set's latest version every `pollInterval` as a fallback (a notification sent while the listening
/// connection was down is never delivered). Runs until cancelled; reconnects by itself.
public struct TrustSetWatcher: Sendable {
    public let sets: [PostgresTrustSet]
    public let pollInterval: Duration

    public init(trust: PostgresTrustSet, pollInterval: Duration = .seconds(1)) {
        self.init(sets: [trust], pollInterval: pollInterval)
    }

    public init(sets: [PostgresTrustSet], pollInterval: Duration = .seconds(1)) {
        self.sets = sets
        self.pollInterval = pollInterval
    }

    /// The first set (the IACAs, for a watcher of one set).
    public var trust: PostgresTrustSet { sets[0] }

    /// Calls `onVersion` with every version number heard of for a set of one table (repeats and old numbers included;
    /// the receiver compares with the one in force).
    public func run(onVersion: @escaping @Sendable (Int) async -> Void) async {
        await run { _, version in await onVersion(version) }
    }

    /// Calls `onVersion` with each set and every version number heard of for it.
    public func run(onVersion: @escaping @Sendable (PostgresTrustSet, Int) async -> Void) async {
        guard !sets.isEmpty else { return }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await listen(onVersion: onVersion) }
            group.addTask { await poll(onVersion: onVersion) }
            await group.waitForAll()
        }
    }

    func poll(onVersion: @escaping @Sendable (PostgresTrustSet, Int) async -> Void) async {
        while !Task.isCancelled {
            for set in sets {
                if let version = try? await set.latestVersion() { await onVersion(set, version) }
            }
            try? await Task.sleep(for: pollInterval)
        }
    }

    func listen(onVersion: @escaping @Sendable (PostgresTrustSet, Int) async -> Void) async {
        let database = sets[0].database
        let client = database.client
        let logger = database.logger
        let sets = self.sets
        while !Task.isCancelled {
            do {
                try await client.withConnection { connection in
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        for set in sets {
                            group.addTask {
                                try await connection.listen(on: set.table.channel) { notifications in
                                    for try await notification in notifications {
                                        if let version = Int(notification.payload) { await onVersion(set, version) }
                                    }
                                }
                            }
                        }
                        try await group.waitForAll()
                    }
                }
            } catch {
                if !Task.isCancelled {
                    logger.debug("trust notifications interrupted", metadata: ["reason": "\(PostgresDatabase.describe(error))"])
                }
            }
            try? await Task.sleep(for: pollInterval)
        }
    }
}
