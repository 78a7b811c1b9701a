import Foundation
import Logging
import Synchronization
import TrustStore

/// Why a change to the trust set was refused.
public enum TrustChangeError: Error, Sendable, CustomStringConvertible {
    /// The certificate is not a usable IACA (not a CA, no keyCertSign, expired, unparsable).
    case invalid(String)
    case alreadyPresent([String])
    case notFound(String)
    /// The directory could not be written; nothing changed.
    case storage(String)

    public var description: String {
        switch self {
        case .invalid(let reason): return reason
        case .alreadyPresent(let fingerprints): return "already trusted: " + fingerprints.joined(separator: ", ")
        case .notFound(let fingerprint): return "no trusted IACA with SHA-256 \(fingerprint)"
        case .storage(let reason): return "the trust directory could not be written: \(reason)"
        }
    }
}

/// The trust set in force: an immutable snapshot swapped atomically, backed by a ``TrustDirectory``.
///
/// Readers take the current snapshot and keep it for the whole verification. Writers are serialized and always
/// start from the directory's current content, so no write is lost; every change is validated before it is
/// written, and written before it takes effect.
public final class TrustStoreManager: Sendable {
    public let directory: TrustDirectory
    private let current: Mutex<TrustSnapshot>
    private let writer = Mutex(())
    private let lastSignature: Mutex<String>
    private let logger: Logger

    public init(directory: TrustDirectory, logger: Logger) throws(TrustAnchorError) {
        self.directory = directory
        self.logger = logger
        let signature = directory.stateSignature()
        let anchors = try directory.load()
        current = Mutex(TrustSnapshot(anchors: anchors, version: 1))
        lastSignature = Mutex(signature)
    }

    /// The snapshot in force now.
    public var snapshot: TrustSnapshot { current.withLock { $0 } }

    /// Re-reads the directory and swaps in its content. `actor` says who asked (for the audit log).
    @discardableResult
    public func reload(actor: String) throws(TrustAnchorError) -> TrustSnapshot {
        try writer.withLock { _ throws(TrustAnchorError) in try reloadLocked(actor: actor, reason: "reload") }
    }

    /// Reloads only when the directory changed since it was last read (for polling and SIGHUP).
    public func reloadIfChanged(actor: String) {
        writer.withLock { _ in
            guard directory.stateSignature() != lastSignature.withLock({ $0 }) else { return }
            do {
                _ = try reloadLocked(actor: actor, reason: "directory changed")
            } catch {
                logger.error("trust directory change rejected; keeping the set in force",
                             metadata: ["reason": "\(error)", "actor": "\(actor)"])
            }
        }
    }

    private func reloadLocked(actor: String, reason: String) throws(TrustAnchorError) -> TrustSnapshot {
        let signature = directory.stateSignature()
        let anchors = try directory.load()
        let snapshot = swap(anchors)
        lastSignature.withLock { $0 = signature }
        logger.notice("trust set reloaded", metadata: [
            "actor": "\(actor)", "reason": "\(reason)", "version": "\(snapshot.version)",
            "anchors": "\(snapshot.anchors.map(\.sha256).joined(separator: ","))",
        ])
        return snapshot
    }

    private func swap(_ anchors: [TrustAnchor]) -> TrustSnapshot {
        current.withLock { snapshot in
            snapshot = TrustSnapshot(anchors: anchors, version: snapshot.version + 1)
            return snapshot
        }
    }

    /// Validates certificates as IACAs (CA, keyCertSign, and unless allowed, not expired at `now`).
    public static func validate(_ certificates: [[UInt8]], allowExpired: Bool, now: Date)
        throws(TrustChangeError) -> [TrustAnchor]
    {
        guard !certificates.isEmpty else { throw .invalid("no certificate in the request") }
        var anchors: [TrustAnchor] = []
        for der in certificates {
            let anchor: TrustAnchor
            do {
                anchor = try TrustAnchor(derBytes: der)
            } catch {
                throw .invalid(error.description)
            }
            if !allowExpired && !anchor.isValid(at: now) {
                throw .invalid("\(anchor.subject) is not valid now (\(anchor.notBefore.formatted(.iso8601)) to "
                               + "\(anchor.notAfter.formatted(.iso8601))); add ?allowExpired=true to trust it anyway")
            }
            anchors.append(anchor)
        }
        return anchors
    }

    /// Adds anchors; refuses the whole change if any is already trusted.
    public func add(_ anchors: [TrustAnchor], actor: String) throws(TrustChangeError) -> TrustSnapshot {
        try change(actor: actor, action: "add", fingerprints: anchors.map(\.sha256)) { existing throws(TrustChangeError) in
            let present = anchors.filter { anchor in existing.contains { $0.sha256 == anchor.sha256 } }.map(\.sha256)
            guard present.isEmpty else { throw .alreadyPresent(present) }
            return existing + anchors
        }
    }

    /// Replaces the whole set in one step.
    public func replace(with anchors: [TrustAnchor], actor: String) throws(TrustChangeError) -> TrustSnapshot {
        try change(actor: actor, action: "replace", fingerprints: anchors.map(\.sha256)) { _ in anchors }
    }

    /// Removes the anchor with this SHA-256 (lowercase hex).
    public func remove(sha256: String, actor: String) throws(TrustChangeError) -> TrustSnapshot {
        let fingerprint = sha256.lowercased()
        return try change(actor: actor, action: "remove", fingerprints: [fingerprint]) { existing throws(TrustChangeError) in
            guard existing.contains(where: { $0.sha256 == fingerprint }) else { throw .notFound(fingerprint) }
            return existing.filter { $0.sha256 != fingerprint }
        }
    }

    private func change(actor: String, action: String, fingerprints: [String],
                        _ transform: ([TrustAnchor]) throws(TrustChangeError) -> [TrustAnchor])
        throws(TrustChangeError) -> TrustSnapshot
    {
        try writer.withLock { _ throws(TrustChangeError) in
            let updated: [TrustAnchor]
            do throws(TrustDirectoryUpdateError<TrustChangeError>) {
                updated = try directory.update(transform)
            } catch {
                switch error {
                case .rejected(let reason): throw reason
                case .storage(let reason): throw .storage(reason)
                }
            }
            lastSignature.withLock { $0 = directory.stateSignature() }
            let snapshot = swap(updated)
            logger.notice("trust set changed", metadata: [
                "actor": "\(actor)", "action": "\(action)", "fingerprints": "\(fingerprints.joined(separator: ","))",
                "version": "\(snapshot.version)", "anchorCount": "\(snapshot.anchors.count)",
            ])
            return snapshot
        }
    }
}
