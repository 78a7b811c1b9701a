import Foundation
import Logging
import PostgresNIO

/// Tells a replica when the shared trust set has a new version: at once through `LISTEN verifierd_trust`, and by
/// polling the latest version every `pollInterval` as a fallback (a notification sent while the listening
/// connection was down is never delivered). Runs until cancelled; reconnects by itself.
public struct TrustSetWatcher: Sendable {
    public let trust: PostgresTrustSet
    public let pollInterval: Duration

    public init(trust: PostgresTrustSet, pollInterval: Duration = .seconds(1)) {
        self.trust = trust
        self.pollInterval = pollInterval
    }

    /// Calls `onVersion` with every version number heard of (repeats and old numbers included; the receiver
    /// compares with the one in force).
    public func run(onVersion: @escaping @Sendable (Int) async -> Void) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await listen(onVersion: onVersion) }
            group.addTask { await poll(onVersion: onVersion) }
            await group.waitForAll()
        }
    }

    func poll(onVersion: @escaping @Sendable (Int) async -> Void) async {
        while !Task.isCancelled {
            if let version = try? await trust.latestVersion() { await onVersion(version) }
            try? await Task.sleep(for: pollInterval)
        }
    }

    func listen(onVersion: @escaping @Sendable (Int) async -> Void) async {
        let client = trust.database.client
        let logger = trust.database.logger
        while !Task.isCancelled {
            do {
                try await client.withConnection { connection in
                    try await connection.listen(on: PostgresTrustSet.channel) { notifications in
                        for try await notification in notifications {
                            if let version = Int(notification.payload) { await onVersion(version) }
                        }
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
