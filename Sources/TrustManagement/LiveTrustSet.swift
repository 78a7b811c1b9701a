import Encodings
import Foundation
import Logging
import Synchronization
import TrustLists
import TrustStore

/// The trust set in force: an immutable snapshot swapped atomically, backed by a ``TrustDirectory`` or, with
/// several replicas, by a ``SharedTrustSet`` (the database).
///
/// Readers take the current snapshot and keep it for the whole verification. Writers are serialized and start
/// from the stored set (or, when a directory does not load, from the set in force), so no write is lost and a
/// damaged file never wedges the directory; every change is validated before it is written, and written before
/// it takes effect. With a shared set, versions committed by other replicas are adopted through ``adopt(_:actor:)``.
public final class LiveTrustSet: Sendable {
    public let directory: TrustDirectory
    /// The database's set, when the store is shared; the directory then only seeds an empty database.
    public let shared: (any SharedTrustSet)?
    private let current: Mutex<TrustSnapshot>
    private let writer = Mutex(())
    /// Where directory changes run (see ``change``).
    private let directoryWrites = DispatchQueue(label: "verifierd.trust-directory-writes")
    private let lastSignature: Mutex<String>
    /// Why the directory did not load the last time it was read; nil when it did.
    private let loadProblem = Mutex<String?>(nil)
    private let logger: Logger
    /// Changes the console shows.
    public static let changesShown = 50

    /// Reads the directory; when it does not exist and `seed` is given, first creates it with the seed's anchors.
    public init(directory: TrustDirectory, seed: URL? = nil, logger: Logger) throws(TrustAnchorError) {
        self.directory = directory
        self.logger = logger
        if let seed {
            do {
                if try directory.seedIfAbsent(from: seed) {
                    logger.notice("trust directory created from its seed", metadata: [
                        "directory": "\(directory.url.path)", "seed": "\(seed.path)"])
                }
            } catch {
                throw .unreadable(source: seed.path, reason: "cannot seed \(directory.url.path): \(error)")
            }
        }
        let signature = directory.stateSignature()
        let set = try directory.load()
        // Versions go on from the last one the directory's change log recorded, so they never repeat across
        // restarts or between the service and `verifierd iaca`.
        current = Mutex(TrustSnapshot(set: set, version: directory.changeLog.recent(limit: 1).first?.version ?? 1))
        lastSignature = Mutex(signature)
        shared = nil
    }

    /// A manager whose set lives in `shared`, starting from `initial` (read by the caller); versions are the
    /// shared store's, the same on every replica.
    public init(shared: any SharedTrustSet, initial: VersionedTrustSet, directory: TrustDirectory, logger: Logger) {
        self.directory = directory
        self.shared = shared
        self.logger = logger
        current = Mutex(TrustSnapshot(set: initial.set, version: initial.version))
        lastSignature = Mutex("")
    }

    /// Puts a version committed elsewhere in force, when it is newer than the one in force (versions only go
    /// forward, whatever order notifications arrive in). Returns the new snapshot, or nil when it was not newer.
    @discardableResult
    public func adopt(_ versioned: VersionedTrustSet, actor: String) -> TrustSnapshot? {
        let (snapshot, changed) = putInForceIfNewer(versioned)
        if changed {
            record(actor: actor, action: "adopt", requestID: nil, snapshot: snapshot, fingerprints: [])
        }
        return changed ? snapshot : nil
    }

    /// Swaps in `versioned` when it is newer than the snapshot in force (versions only go forward); returns the
    /// snapshot in force afterwards and whether it changed.
    private func putInForceIfNewer(_ versioned: VersionedTrustSet) -> (TrustSnapshot, Bool) {
        current.withLock { snapshot in
            guard versioned.version > snapshot.version else { return (snapshot, false) }
            snapshot = TrustSnapshot(set: versioned.set, version: versioned.version)
            return (snapshot, true)
        }
    }

    /// The snapshot in force now.
    public var snapshot: TrustSnapshot { current.withLock { $0 } }

    /// Why the directory did not load at its last read (the set in force stayed), or nil.
    public var directoryProblem: String? { loadProblem.withLock { $0 } }

    /// The latest `limit` changes, newest first, from where the set is kept: the database's versions (the same on
    /// every replica) or the directory's change log (which outlives the process and holds the CLI's changes too).
    public func recentChanges(limit: Int = changesShown) async throws(TrustDirectoryUpdateError<Never>) -> [TrustChange] {
        if let shared { return try await shared.recentChanges(limit: limit) }
        return directory.changeLog.recent(limit: limit)
    }

    /// Re-reads the directory (or the shared set) and swaps in its content. `actor` says who asked (for the audit
    /// log).
    @discardableResult
    public func reload(actor: String, requestID: String? = nil) async throws(TrustAnchorError) -> TrustSnapshot {
        if let shared {
            do {
                let latest = try await shared.latest()
                return adopt(latest, actor: actor) ?? snapshot
            } catch {
                throw .unreadable(source: shared.location, reason: "\(error)")
            }
        }
        return try writer.withLock { _ throws(TrustAnchorError) in
            try reloadLocked(actor: actor, reason: "reload", requestID: requestID)
        }
    }

    /// Reloads only when the directory changed since it was last read (for polling and SIGHUP).
    public func reloadIfChanged(actor: String) {
        guard shared == nil else { return }
        writer.withLock { _ in
            guard directory.stateSignature() != lastSignature.withLock({ $0 }) else { return }
            do {
                _ = try reloadLocked(actor: actor, reason: "directory changed", requestID: nil)
            } catch {
                logger.error("trust directory change rejected; keeping the set in force",
                             metadata: ["reason": "\(error)", "actor": "\(actor)"])
            }
        }
    }

    private func reloadLocked(actor: String, reason: String, requestID: String?) throws(TrustAnchorError) -> TrustSnapshot {
        let signature = directory.stateSignature()
        let set: TrustSet
        do {
            set = try directory.load()
        } catch {
            loadProblem.withLock { $0 = error.description }
            lastSignature.withLock { $0 = signature }
            throw error
        }
        loadProblem.withLock { $0 = nil }
        lastSignature.withLock { $0 = signature }
        // A reload that finds what is in force already is not a change: no new version, no change record.
        let inForce = self.snapshot
        if set.hasSameContent(as: inForce.set) { return inForce }
        // A change another process logged (`verifierd iaca`) keeps its version and its own record.
        if let logged = directory.changeLog.recent(limit: 1).first, logged.version > inForce.version,
           logged.anchorCount == set.anchors.count {
            return current.withLock { snapshot in
                snapshot = TrustSnapshot(set: set, version: logged.version)
                return snapshot
            }
        }
        let snapshot = swap(set)
        record(actor: actor, action: reason, requestID: requestID, snapshot: snapshot, fingerprints: snapshot.anchors.map(\.sha256))
        return snapshot
    }

    private func swap(_ set: TrustSet) -> TrustSnapshot {
        current.withLock { snapshot in
            snapshot = TrustSnapshot(set: set, version: snapshot.version + 1)
            return snapshot
        }
    }

    /// Validates certificates as IACAs (CA, keyCertSign, and unless allowed, not expired at `now`), scoped to
    /// `docTypes` when given. The same certificate twice is refused. `allowExpiredHint` says, in the caller's terms,
    /// how to trust an expired one anyway (the CLI's flag, the API's query parameter).
    public static func validate(_ certificates: [[UInt8]], docTypes: [String]? = nil, allowExpired: Bool, now: Date,
                                allowExpiredHint: String = "allow expired anchors")
        throws(TrustChangeError) -> [TrustAnchor]
    {
        guard !certificates.isEmpty else { throw .invalid("no certificate in the request") }
        var anchors: [TrustAnchor] = []
        for der in certificates {
            let anchor: TrustAnchor
            do {
                anchor = try TrustAnchor(derBytes: der, metadata: TrustAnchorMetadata(docTypes: docTypes))
            } catch {
                if case .unparsable = error { throw .unparsable(error.description) }
                throw .invalid(error.description)
            }
            if !allowExpired && !anchor.isValid(at: now) {
                throw .invalid("\(anchor.subject) is not valid now (\(RFC3339Timestamp.string(anchor.notBefore)) to "
                               + "\(RFC3339Timestamp.string(anchor.notAfter))); \(allowExpiredHint) to trust it anyway")
            }
            anchors.append(anchor)
        }
        try requireDistinct(anchors)
        return anchors
    }

    /// One request names each certificate once.
    public static func requireDistinct(_ anchors: [TrustAnchor]) throws(TrustChangeError) {
        var seen = Set<String>()
        let repeated = anchors.map(\.sha256).filter { !seen.insert($0).inserted }
        guard repeated.isEmpty else { throw .duplicate(Array(Set(repeated)).sorted()) }
    }

    /// Adds manual anchors; refuses the whole change if any is already trusted by hand.
    public func add(_ anchors: [TrustAnchor], actor: String, requestID: String? = nil) async throws(TrustChangeError) -> TrustSnapshot {
        try await change(actor: actor, action: "add", requestID: requestID, fingerprints: anchors.map(\.sha256)) { existing throws(TrustChangeError) in
            let manual = Set(existing.anchors(from: TrustAnchorMetadata.manualSource).map(\.sha256))
            let present = anchors.filter { manual.contains($0.sha256) }.map(\.sha256)
            guard present.isEmpty else { throw .alreadyPresent(present) }
            var updated = existing
            updated.anchors += anchors
            return updated
        }.snapshot
    }

    /// Replaces the manual anchors in one step; anchors imported from VICALs stay (their source manages them).
    public func replaceManual(with anchors: [TrustAnchor], allowEmpty: Bool = false, actor: String,
                              requestID: String? = nil) async throws(TrustChangeError) -> TrustSnapshot
    {
        try await change(actor: actor, action: "replace", requestID: requestID, fingerprints: anchors.map(\.sha256)) { existing throws(TrustChangeError) in
            var updated = existing
            updated.anchors = existing.anchors.filter { $0.metadata.source != TrustAnchorMetadata.manualSource } + anchors
            guard allowEmpty || !updated.anchors.isEmpty else { throw .wouldBeEmpty }
            return updated
        }.snapshot
    }

    /// Replaces the whole set (every source, and the VICAL records) in one step: `iaca import --dir`.
    public func replaceAll(with set: TrustSet, actor: String, requestID: String? = nil) async throws(TrustChangeError) -> TrustSnapshot {
        try await change(actor: actor, action: "import", requestID: requestID, fingerprints: set.anchors.map(\.sha256)) { _ throws(TrustChangeError) in
            set
        }.snapshot
    }

    /// Removes every entry of the certificate with this SHA-256 (lowercase hex), whatever its source. Refuses to
    /// leave the set empty unless `allowEmpty`.
    public func remove(sha256: String, allowEmpty: Bool = false, actor: String, requestID: String? = nil)
        async throws(TrustChangeError) -> TrustSnapshot
    {
        let fingerprint = sha256.lowercased()
        return try await change(actor: actor, action: "remove", requestID: requestID, fingerprints: [fingerprint]) { existing throws(TrustChangeError) in
            guard existing.anchors.contains(where: { $0.sha256 == fingerprint }) else { throw .notFound(fingerprint) }
            var updated = existing
            updated.anchors = existing.anchors.filter { $0.sha256 != fingerprint }
            guard allowEmpty || !updated.anchors.isEmpty else { throw .wouldBeEmpty }
            return updated
        }.snapshot
    }

    /// Verifies nothing (the caller did), but checks the list against the one in force for its source (no
    /// rollback), then replaces all anchors of that source in one atomic step, leaving other sources and manual
    /// anchors alone. A dry run computes the same answer and writes nothing.
    public func importVICAL(_ verified: VerifiedVICAL, dryRun: Bool, now: Date, actor: String, requestID: String? = nil)
        async throws(TrustChangeError) -> VICALImportResult
    {
        let source = TrustAnchorMetadata.vicalSource(verified.source)
        if dryRun {
            let stored: TrustSet? = if let shared { try? await shared.latest().set } else { try? directory.load() }
            let set = stored ?? snapshot.set
            try Self.checkOrder(verified, against: set.lists[verified.source])
            return VICALImportResult(verified: verified, diff: TrustSetDiff(current: set.anchors(from: source), proposed: verified.anchors),
                                     dryRun: true, version: snapshot.version)
        }
        let changed = try await change(actor: actor, action: "vical-import:\(verified.source)", requestID: requestID,
                                       fingerprints: verified.anchors.map(\.sha256)) { existing throws(TrustChangeError) in
            try Self.checkOrder(verified, against: existing.lists[verified.source])
            var updated = existing
            updated.anchors = existing.anchors.filter { $0.metadata.source != source } + verified.anchors
            updated.lists[verified.source] = verified.record(importedAt: now)
            return updated
        }
        let diff = TrustSetDiff(current: changed.previous.anchors(from: source), proposed: verified.anchors)
        return VICALImportResult(verified: verified, diff: diff, dryRun: false, version: changed.snapshot.version)
    }

    /// The succession rule of ``VerifiedVICAL/checkSuccession(after:)`` as a trust change's error.
    static func checkOrder(_ verified: VerifiedVICAL, against inForce: TrustListRecord?) throws(TrustChangeError) {
        do throws(VICALError) {
            try verified.checkSuccession(after: inForce)
        } catch {
            throw .vical(error)
        }
    }

    /// Applies `transform` to the stored set and puts the result in force; returns the set before and the new
    /// snapshot.
    func change(actor: String, action: String, requestID: String?, fingerprints: [String],
                        _ transform: @escaping @Sendable (TrustSet) throws(TrustChangeError) -> TrustSet)
        async throws(TrustChangeError) -> (previous: TrustSet, snapshot: TrustSnapshot)
    {
        if let shared {
            let result: (previous: TrustSet, committed: VersionedTrustSet)
            do {
                result = try await shared.update(TrustChangeAudit(actor: actor, action: action, requestID: requestID,
                                                                  fingerprints: fingerprints), transform)
            } catch {
                switch error {
                case .rejected(let reason): throw reason
                case .storage(let reason): throw .unavailable(reason)
                }
            }
            let snapshot = putInForceIfNewer(result.committed).0
            record(actor: actor, action: action, requestID: requestID, snapshot: snapshot, fingerprints: fingerprints)
            return (result.previous, snapshot)
        }
        // The directory write blocks (flock, fsync of every file): it runs on a queue of its own, never on the
        // cooperative pool, where two writers would take both threads of a 2-core machine from the verifications.
        let outcome = await withCheckedContinuation { continuation in
            directoryWrites.async {
                continuation.resume(returning: Result { () throws(TrustChangeError) in
                    try self.changeDirectory(actor: actor, action: action, requestID: requestID,
                                             fingerprints: fingerprints, transform)
                })
            }
        }
        return try outcome.get()
    }

    /// The directory half of ``change``: read, transform and write under the exclusive lock, then swap.
    private func changeDirectory(actor: String, action: String, requestID: String?, fingerprints: [String],
                                 _ transform: (TrustSet) throws(TrustChangeError) -> TrustSet)
        throws(TrustChangeError) -> (previous: TrustSet, snapshot: TrustSnapshot)
    {
        try writer.withLock { _ throws(TrustChangeError) in
            var previous = TrustSet(anchors: [])
            let updated: TrustSet
            do throws(TrustDirectoryUpdateError<TrustChangeError>) {
                updated = try directory.update(fallback: snapshot.set) { existing throws(TrustChangeError) in
                    previous = existing
                    return try transform(existing)
                }
            } catch {
                switch error {
                case .rejected(let reason): throw reason
                case .storage(let reason): throw .storage(reason)
                }
            }
            lastSignature.withLock { $0 = directory.stateSignature() }
            loadProblem.withLock { $0 = nil }
            let snapshot = swap(updated)
            record(actor: actor, action: action, requestID: requestID, snapshot: snapshot, fingerprints: fingerprints)
            return (previous, snapshot)
        }
    }

    private func record(actor: String, action: String, requestID: String?, snapshot: TrustSnapshot, fingerprints: [String]) {
        var metadata: Logger.Metadata = [
            "actor": "\(actor)", "action": "\(action)", "fingerprints": .array(fingerprints.map { .string($0) }),
            "version": .stringConvertible(snapshot.version), "anchorCount": .stringConvertible(snapshot.anchors.count),
        ]
        if let requestID { metadata["requestId"] = "\(requestID)" }
        logger.notice("trust set changed", metadata: metadata)
        // The database keeps its own record of each version it commits; the directory's is its change log.
        guard shared == nil else { return }
        let entry = TrustChange(at: Date(), actor: actor, action: action, requestID: requestID, version: snapshot.version,
                                anchorCount: snapshot.anchors.count, fingerprints: fingerprints)
        if !directory.changeLog.append(entry) {
            logger.warning("trust change not written to the change log", metadata: [
                "file": "\(directory.url.appendingPathComponent(TrustChangeLog.fileName).path)"])
        }
    }
}
