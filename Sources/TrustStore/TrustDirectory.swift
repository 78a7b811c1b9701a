#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Crypto
import Encodings
import Foundation

/// The on-disk trust set: a directory whose changes are atomic.
///
/// Each version of the set lives in its own folder under `.versions/`, and a `current` symlink names the version in
/// force. A change writes a complete new version (files and folders fsynced), then switches `current` with
/// rename(2), so a crash at any moment leaves either the old set or the new one, never a mix. A directory without
/// `current` (for example a mounted config map, or files placed by hand) is read flat.
public struct TrustDirectory: Sendable {
    public let url: URL
    /// How many versions to keep (the one in force included).
    public var versionsKept = 3

    public static let currentLinkName = "current"
    public static let versionsFolderName = ".versions"
    /// The file every process locks with flock(2): exclusively to change the set, shared to read it.
    public static let lockFileName = ".lock"

    public init(url: URL) {
        self.url = url
    }

    var currentLink: URL { url.appendingPathComponent(Self.currentLinkName) }
    var versionsFolder: URL { url.appendingPathComponent(Self.versionsFolderName) }
    /// The directory's change history (who changed the set, when, and the version made).
    public var changeLog: TrustChangeLog { TrustChangeLog(directory: url) }

    /// The folder whose certificate files form the set in force.
    public var activeFolder: URL {
        if (try? FileManager.default.destinationOfSymbolicLink(atPath: currentLink.path)) != nil {
            return currentLink.resolvingSymlinksInPath()
        }
        return url
    }

    /// Reads the set in force, holding a shared lock so that no writer removes the version being read.
    public func load() throws(TrustAnchorError) -> TrustSet {
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw .unreadable(source: url.path, reason: "no such directory")
        }
        let lock = DirectoryLock(directory: url, exclusive: false)
        defer { lock?.unlock() }
        return try AnchorFiles.load(from: activeFolder)
    }

    /// Creates the directory with the anchors of `seed` (a folder of PEM files, for example the committed demo
    /// anchors) when it does not exist yet, so the folder the service writes is never the committed one.
    /// Returns whether it seeded. A directory whose very first write was interrupted (a `.versions/` folder, no
    /// `current`, no certificate) is seeded again rather than read as an empty flat set.
    @discardableResult
    public func seedIfAbsent(from seed: URL) throws -> Bool {
        guard !FileManager.default.fileExists(atPath: url.path) || firstWriteWasInterrupted else { return false }
        let set = try AnchorFiles.load(from: seed)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        try write(set)
        return true
    }

    /// Whether the directory holds only what an interrupted first write leaves: `.versions/` and no `current`,
    /// and nothing else but the lock file and staging leftovers.
    var firstWriteWasInterrupted: Bool {
        guard (try? FileManager.default.destinationOfSymbolicLink(atPath: currentLink.path)) == nil,
              FileManager.default.fileExists(atPath: versionsFolder.path),
              let names = try? FileManager.default.contentsOfDirectory(atPath: url.path)
        else { return false }
        return names.allSatisfy {
            $0 == Self.versionsFolderName || $0 == Self.lockFileName || $0.hasPrefix(Self.temporaryLinkPrefix)
                || $0.hasPrefix(TrustChangeLog.fileName)
        }
    }

    /// A fingerprint of what `load()` would read: the folder in force and, per certificate file, the path it
    /// resolves to and the SHA-256 of its content. Symlinks are followed, so a Kubernetes config map (files that
    /// link into a `..data` folder swapped atomically) changes the fingerprint when its content changes, whatever
    /// the dates on the links.
    public func stateSignature() -> String {
        let lock = DirectoryLock(directory: url, exclusive: false)
        defer { lock?.unlock() }
        let folder = activeFolder
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
        var parts = [folder.resolvingSymlinksInPath().path]
        for name in names where !name.hasPrefix(".") {
            let file = folder.appendingPathComponent(name)
            guard AnchorFiles.certificateExtensions.contains(file.pathExtension.lowercased())
                    || name == TrustManifest.fileName else { continue }
            let resolved = file.resolvingSymlinksInPath().path
            let digest = (try? Data(contentsOf: file)).map { Data(SHA256.hash(data: $0)).base64EncodedString() } ?? "unreadable"
            parts.append("\(name)>\(resolved):\(digest)")
        }
        return parts.joined(separator: "|")
    }

    /// Changes the set under an exclusive flock(2) on the directory, held across read, transform and write, so
    /// that writers in other processes (the CLI next to the service, two CLI runs) never lose each other's changes.
    /// When the set in force cannot be read (a damaged file), the transform starts from `fallback` (the set the
    /// caller holds in memory) if given, so a change can always repair the directory. Returns the set written.
    public func update<Failure: Error>(fallback: TrustSet? = nil,
                                       _ transform: (TrustSet) throws(Failure) -> TrustSet)
        throws(TrustDirectoryUpdateError<Failure>) -> TrustSet
    {
        guard let lock = DirectoryLock(directory: url, exclusive: true) else {
            throw .storage("cannot lock \(url.appendingPathComponent(Self.lockFileName).path): \(String(cString: strerror(errno)))")
        }
        defer { lock.unlock() }
        let existing: TrustSet
        do {
            existing = try AnchorFiles.load(from: activeFolder)
        } catch {
            guard let fallback else { throw .storage("cannot read the set in force: \(error)") }
            existing = fallback
        }
        let updated: TrustSet
        do {
            updated = try transform(existing)
        } catch {
            throw .rejected(error)
        }
        do {
            return try writeLocked(updated)
        } catch {
            throw .storage("\(error)")
        }
    }

    /// Writes `set` as a new version and makes it the one in force, under the exclusive lock. Returns the set as
    /// written (each anchor with its file name).
    @discardableResult
    public func write(_ set: TrustSet) throws -> TrustSet {
        guard let lock = DirectoryLock(directory: url, exclusive: true) else {
            throw POSIXError(errno, "lock \(url.path)")
        }
        defer { lock.unlock() }
        return try writeLocked(set)
    }

    /// The file name of an anchor in a version folder: `<sha256>.pem` for manual anchors, `<source>-<sha256>.pem`
    /// for the others (one file per certificate and source).
    static func fileName(for anchor: TrustAnchor) -> String {
        guard anchor.metadata.source != TrustAnchorMetadata.manualSource else { return "\(anchor.sha256).pem" }
        let safe = anchor.metadata.source.unicodeScalars.map {
            CharacterSet.alphanumerics.contains($0) && $0.isASCII ? Character($0) : "-"
        }
        return String(safe) + "-\(anchor.sha256).pem"
    }

    /// Name prefixes of what a write creates before the switch: a staging folder under `.versions/`, and the new
    /// `current` link beside the old one.
    static let stagingPrefix = ".staging-"
    static var temporaryLinkPrefix: String { ".\(currentLinkName)-" }

    private func writeLocked(_ set: TrustSet) throws -> TrustSet {
        let fileManager = FileManager.default
        try fileManager.createDirectory(at: versionsFolder, withIntermediateDirectories: true)
        removeInterruptedWrites()
        let id = "v\(Int64(Date().timeIntervalSince1970 * 1000))-\(UInt32.random(in: 0...UInt32.max))"
        let staging = versionsFolder.appendingPathComponent(Self.stagingPrefix + id)
        try fileManager.createDirectory(at: staging, withIntermediateDirectories: false)
        let written = TrustSet(anchors: set.normalized().anchors.map { $0.with(file: Self.fileName(for: $0)) },
                               lists: set.lists)
        do {
            for (index, anchor) in written.anchors.enumerated() {
                try Self.writeDurably(Array(Self.pem(anchor.derBytes).utf8),
                                      to: staging.appendingPathComponent(anchor.file ?? ""), crashHalfway: index == 0)
            }
            try Self.writeDurably(try TrustManifest(written).encoded(),
                                  to: staging.appendingPathComponent(TrustManifest.fileName))
            try Self.fsyncPath(staging)
            TrustWriteStep.fsync.reached()
            let version = versionsFolder.appendingPathComponent(id)
            try Self.moveAtomically(staging, to: version)
            try Self.fsyncPath(versionsFolder)
            TrustWriteStep.rename.reached()

            let temporaryLink = url.appendingPathComponent(Self.temporaryLinkPrefix + id)
            try fileManager.createSymbolicLink(atPath: temporaryLink.path,
                                               withDestinationPath: "\(Self.versionsFolderName)/\(id)")
            try Self.moveAtomically(temporaryLink, to: currentLink)
            TrustWriteStep.switch.reached()
            try Self.fsyncPath(url)
        } catch {
            try? fileManager.removeItem(at: staging)
            throw error
        }
        removeOldVersions(keeping: id)
        return written
    }

    /// Deletes what a writer killed before its switch left behind (staging folders, unswitched links). Called under
    /// the exclusive lock, so no live writer owns them.
    func removeInterruptedWrites() {
        let fileManager = FileManager.default
        for name in (try? fileManager.contentsOfDirectory(atPath: versionsFolder.path)) ?? []
        where name.hasPrefix(Self.stagingPrefix) {
            try? fileManager.removeItem(at: versionsFolder.appendingPathComponent(name))
        }
        for name in (try? fileManager.contentsOfDirectory(atPath: url.path)) ?? [] where name.hasPrefix(Self.temporaryLinkPrefix) {
            try? fileManager.removeItem(at: url.appendingPathComponent(name))
        }
    }

    /// Deletes versions beyond `versionsKept`, newest first, never the one in force.
    func removeOldVersions(keeping current: String) {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: versionsFolder.path)) ?? [])
            .filter { !$0.hasPrefix(".") && $0 != current }
        let sorted = names.sorted { versionTime($0) > versionTime($1) }
        for name in sorted.dropFirst(max(0, versionsKept - 1)) {
            try? FileManager.default.removeItem(at: versionsFolder.appendingPathComponent(name))
        }
    }

    private func versionTime(_ name: String) -> Int64 {
        Int64(name.dropFirst().prefix { $0 != "-" }) ?? 0
    }

    /// PEM text of a DER certificate.
    public static func pem(_ der: [UInt8]) -> String {
        PEM.encode(label: "CERTIFICATE", bytes: der)
    }

    /// Writes a new file and fsyncs it. `crashHalfway` marks the file where the ``TrustWriteStep/write`` hook
    /// fires, after half of it is written.
    static func writeDurably(_ bytes: [UInt8], to url: URL, crashHalfway: Bool = false) throws {
        let fd = open(url.path, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard fd >= 0 else { throw POSIXError(errno, "open \(url.lastPathComponent)") }
        defer { close(fd) }
        var written = 0
        while written < bytes.count {
            if crashHalfway && written >= bytes.count / 2 { TrustWriteStep.write.reached() }
            let end = crashHalfway && written < bytes.count / 2 ? bytes.count / 2 : bytes.count
            let n = bytes[written..<end].withUnsafeBytes { posixWrite(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw POSIXError(errno, "write \(url.lastPathComponent)")
            }
            written += n
        }
        guard fsync(fd) == 0 else { throw POSIXError(errno, "fsync \(url.lastPathComponent)") }
    }

    static func fsyncPath(_ url: URL) throws {
        let fd = open(url.path, O_RDONLY)
        guard fd >= 0 else { throw POSIXError(errno, "open \(url.path)") }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw POSIXError(errno, "fsync \(url.path)") }
    }

    /// rename(2): atomic replacement of `to`.
    static func moveAtomically(_ from: URL, to: URL) throws {
        guard rename(from.path, to.path) == 0 else { throw POSIXError(errno, "rename to \(to.lastPathComponent)") }
    }
}

/// Why ``TrustDirectory/update(_:)`` changed nothing.
public enum TrustDirectoryUpdateError<Failure: Error>: Error {
    /// The transform refused the change.
    case rejected(Failure)
    /// The directory could not be locked, read or written.
    case storage(String)
}

/// An flock(2) on the directory's lock file, released by `unlock()`. Locks taken through separate opens exclude
/// each other between threads of one process as well as between processes.
struct DirectoryLock {
    private let fd: Int32

    /// Blocks until the lock is held; nil when the lock file cannot be opened (a read-only directory, where a
    /// shared lock is not needed because nobody can write).
    init?(directory: URL, exclusive: Bool) {
        let path = directory.appendingPathComponent(TrustDirectory.lockFileName).path
        var fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        if fd < 0 && !exclusive { fd = open(path, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { return nil }
        while flock(fd, exclusive ? LOCK_EX : LOCK_SH) != 0 {
            if errno == EINTR { continue }
            close(fd)
            return nil
        }
        self.fd = fd
    }

    func unlock() {
        flock(fd, LOCK_UN)
        close(fd)
    }
}

/// write(2), named apart from instance methods called `write`.
private func posixWrite(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(fd, buffer, count)
}

/// An errno with what was being done.
public struct POSIXError: Error, CustomStringConvertible {
    public let code: Int32
    public let operation: String
    init(_ code: Int32, _ operation: String) {
        self.code = code
        self.operation = operation
    }
    public var description: String { "\(operation): \(String(cString: strerror(code)))" }
}
