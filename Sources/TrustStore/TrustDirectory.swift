#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
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

    public init(url: URL) {
        self.url = url
    }

    var currentLink: URL { url.appendingPathComponent(Self.currentLinkName) }
    var versionsFolder: URL { url.appendingPathComponent(Self.versionsFolderName) }

    /// The folder whose certificate files form the set in force.
    public var activeFolder: URL {
        if (try? FileManager.default.destinationOfSymbolicLink(atPath: currentLink.path)) != nil {
            return currentLink.resolvingSymlinksInPath()
        }
        return url
    }

    /// Reads the set in force.
    public func load() throws(TrustAnchorError) -> [TrustAnchor] {
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw .unreadable(source: url.path, reason: "no such directory")
        }
        return try TrustAnchorDirectory.load(from: activeFolder)
    }

    /// A cheap fingerprint of what `load()` would read (version in force, file names, sizes and dates), to notice
    /// changes made by hand or by another process.
    public func stateSignature() -> String {
        let folder = activeFolder
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
        var parts = [folder.path]
        for name in names where !name.hasPrefix(".") {
            let path = folder.appendingPathComponent(name).path
            let attributes = try? FileManager.default.attributesOfItem(atPath: path)
            let size = (attributes?[.size] as? NSNumber)?.int64Value ?? -1
            let date = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            parts.append("\(name):\(size):\(date)")
        }
        return parts.joined(separator: "|")
    }

    /// Writes `anchors` as a new version and makes it the one in force. Returns the version's folder name.
    @discardableResult
    public func write(_ anchors: [TrustAnchor]) throws -> String {
        let fileManager = FileManager.default
        try fileManager.createDirectory(at: versionsFolder, withIntermediateDirectories: true)
        let id = "v\(Int64(Date().timeIntervalSince1970 * 1000))-\(UInt32.random(in: 0...UInt32.max))"
        let staging = versionsFolder.appendingPathComponent(".staging-\(id)")
        try fileManager.createDirectory(at: staging, withIntermediateDirectories: false)
        do {
            for anchor in anchors {
                let file = staging.appendingPathComponent("\(anchor.sha256).pem")
                try Self.writeDurably(Array(Self.pem(anchor.derBytes).utf8), to: file)
            }
            try Self.fsyncPath(staging)
            let version = versionsFolder.appendingPathComponent(id)
            try Self.moveAtomically(staging, to: version)
            try Self.fsyncPath(versionsFolder)

            let temporaryLink = url.appendingPathComponent(".\(Self.currentLinkName)-\(id)")
            try fileManager.createSymbolicLink(atPath: temporaryLink.path,
                                               withDestinationPath: "\(Self.versionsFolderName)/\(id)")
            try Self.moveAtomically(temporaryLink, to: currentLink)
            try Self.fsyncPath(url)
        } catch {
            try? fileManager.removeItem(at: staging)
            throw error
        }
        removeOldVersions(keeping: id)
        return id
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
        let base64 = Data(der).base64EncodedString()
        var lines = ["-----BEGIN CERTIFICATE-----"]
        var index = base64.startIndex
        while index < base64.endIndex {
            let end = base64.index(index, offsetBy: 64, limitedBy: base64.endIndex) ?? base64.endIndex
            lines.append(String(base64[index..<end]))
            index = end
        }
        lines.append("-----END CERTIFICATE-----")
        return lines.joined(separator: "\n") + "\n"
    }

    static func writeDurably(_ bytes: [UInt8], to url: URL) throws {
        let fd = open(url.path, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard fd >= 0 else { throw POSIXError(errno, "open \(url.lastPathComponent)") }
        defer { close(fd) }
        var written = 0
        while written < bytes.count {
            let n = bytes[written...].withUnsafeBytes { posixWrite(fd, $0.baseAddress, $0.count) }
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
