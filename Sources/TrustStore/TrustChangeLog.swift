import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The trust directory's change history: one JSON line per change in `.changes.jsonl` beside the versions, appended
/// under the directory's lock by every writer (the service, `verifierd iaca`), so it survives restarts and shows
/// the CLI's changes as the CLI's. Bounded: past ``maximumBytes`` the oldest lines are dropped, keeping the newest
/// ``linesKeptWhenCompacting``; reads look at the file's last ``tailBytes`` only.
public struct TrustChangeLog: Sendable {
    public static let fileName = ".changes.jsonl"
    static let maximumBytes = 1 << 20
    static let linesKeptWhenCompacting = 1000
    static let tailBytes = 256 * 1024

    let directory: URL
    var file: URL { directory.appendingPathComponent(Self.fileName) }

    public init(directory: URL) {
        self.directory = directory
    }

    /// Appends one change (one write(2) of one line under the exclusive directory lock), compacting first when the
    /// file has grown past ``maximumBytes``. Returns false when the log cannot be written (a read-only directory).
    @discardableResult
    public func append(_ change: TrustChange) -> Bool {
        guard var line = try? Self.encoder.encode(change) else { return false }
        line.append(UInt8(ascii: "\n"))
        guard let lock = DirectoryLock(directory: directory, exclusive: true) else { return false }
        defer { lock.unlock() }
        compactIfLarge()
        let fd = open(file.path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        let written = line.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        return written == line.count
    }

    /// The latest `limit` changes, newest first; lines that do not decode are skipped.
    public func recent(limit: Int) -> [TrustChange] {
        guard limit > 0, let handle = try? FileHandle(forReadingFrom: file) else { return [] }
        defer { try? handle.close() }
        guard let size = try? handle.seekToEnd() else { return [] }
        let start = size > UInt64(Self.tailBytes) ? size - UInt64(Self.tailBytes) : 0
        guard (try? handle.seek(toOffset: start)) != nil, let data = try? handle.readToEnd() else { return [] }
        var lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true)
        if start > 0, !lines.isEmpty { lines.removeFirst() }  // the first line may be cut
        var changes: [TrustChange] = []
        for line in lines.reversed() {
            guard changes.count < limit else { break }
            if let change = try? Self.decoder.decode(TrustChange.self, from: Data(line)) { changes.append(change) }
        }
        return changes
    }

    /// Keeps the newest lines when the file is over ``maximumBytes`` (written to a temporary file and renamed over
    /// the log, so a reader sees the old or the new file). The caller holds the exclusive lock.
    private func compactIfLarge() {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: file.path),
              let size = attributes[.size] as? Int, size > Self.maximumBytes,
              let data = try? Data(contentsOf: file) else { return }
        let lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true)
            .suffix(Self.linesKeptWhenCompacting)
        var kept = Data()
        for line in lines {
            kept.append(contentsOf: line)
            kept.append(UInt8(ascii: "\n"))
        }
        let temporary = directory.appendingPathComponent(Self.fileName + ".tmp")
        guard (try? kept.write(to: temporary)) != nil else { return }
        _ = rename(temporary.path, file.path)
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(Int64((date.timeIntervalSince1970 * 1000).rounded()))
        }
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let milliseconds = try decoder.singleValueContainer().decode(Int64.self)
            return Date(timeIntervalSince1970: Double(milliseconds) / 1000)
        }
        return decoder
    }()
}
