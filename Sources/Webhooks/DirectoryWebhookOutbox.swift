import Foundation
import Synchronization

/// The outbox of a single process: one file per message in a directory of its own (0700, files 0600), written to a
/// temporary name, flushed to disk and renamed before ``enqueue(_:)`` returns, so a message survives a crash or a
/// restart; read back at start. Leases live in memory (one process claims).
///
/// File form: the line `verifierd-webhook-v1`, one line `<integrator> <createdMs> <attempts> <nextAttemptMs>`, then
/// the body. A file that does not read is left in place, named in the error at start.
public final class DirectoryWebhookOutbox: WebhookOutbox {
    static let magic = "verifierd-webhook-v1"
    public let directory: URL
    public let maximumMessages: Int
    public static let maximumBodyBytes = 1 << 20

    private struct Entry {
        var message: WebhookMessage
        var leasedUntil: Date?
    }

    private let entries: Mutex<[String: Entry]>

    /// Opens (creating it 0700 when absent) `directory` and reads the messages it holds.
    public init(directory: URL, maximumMessages: Int = 10_000) throws(WebhookOutboxError) {
        self.directory = directory
        self.maximumMessages = max(1, maximumMessages)
        let manager = FileManager.default
        var loaded: [String: Entry] = [:]
        do {
            try manager.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            for name in try manager.contentsOfDirectory(atPath: directory.path) {
                if name.hasPrefix(".tmp-") {
                    try? manager.removeItem(at: directory.appendingPathComponent(name))
                    continue
                }
                guard name.hasSuffix(".msg") else { continue }
                let id = String(name.dropLast(4))
                let data = try Data(contentsOf: directory.appendingPathComponent(name))
                guard WebhookMessage.isWellFormedID(id), let message = Self.decode(id: id, Array(data)) else {
                    throw WebhookOutboxError.unavailable("\(directory.path)/\(name) is not a webhook message this version wrote")
                }
                loaded[id] = Entry(message: message, leasedUntil: nil)
            }
        } catch let error as WebhookOutboxError {
            throw error
        } catch {
            throw .unavailable("\(directory.path): \(error.localizedDescription)")
        }
        entries = Mutex(loaded)
    }

    static func encode(_ message: WebhookMessage) -> [UInt8] {
        let head = "\(magic)\n\(message.integrator) \(Int64(message.createdAt.timeIntervalSince1970 * 1000)) \(message.attempts) "
            + "\(Int64(message.nextAttemptAt.timeIntervalSince1970 * 1000))\n"
        return Array(head.utf8) + message.body
    }

    static func decode(id: String, _ bytes: [UInt8]) -> WebhookMessage? {
        guard bytes.count <= maximumBodyBytes + 512 else { return nil }
        var lines: [Substring.UTF8View] = []
        var start = 0
        for (index, byte) in bytes.enumerated() where byte == 0x0A && lines.count < 2 {
            lines.append(Substring(decoding: bytes[start..<index], as: UTF8.self).utf8)
            start = index + 1
        }
        guard lines.count == 2, String(Substring(lines[0])) == magic else { return nil }
        let fields = String(Substring(lines[1])).split(separator: " ", omittingEmptySubsequences: false)
        guard fields.count == 4, !fields[0].isEmpty, let created = Int64(fields[1]), let attempts = Int(fields[2]), attempts >= 0,
              let next = Int64(fields[3]) else { return nil }
        return WebhookMessage(id: id, integrator: String(fields[0]), body: Array(bytes[start...]),
                              createdAt: Date(timeIntervalSince1970: Double(created) / 1000), attempts: attempts,
                              nextAttemptAt: Date(timeIntervalSince1970: Double(next) / 1000))
    }

    private func file(_ id: String) -> URL { directory.appendingPathComponent("\(id).msg") }

    /// Writes the message's file durably (temporary file, fsync, rename, fsync of the directory).
    private func write(_ message: WebhookMessage) throws(WebhookOutboxError) {
        let bytes = Self.encode(message)
        let temporary = directory.appendingPathComponent(".tmp-\(message.id)")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .unavailable("cannot write in \(directory.path) (errno \(errno))") }
        var written = 0
        let ok = bytes.withUnsafeBytes { buffer -> Bool in
            while written < buffer.count {
                let count = Foundation.write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                if count < 0 { if errno == EINTR { continue }; return false }
                written += count
            }
            return fsync(descriptor) == 0
        }
        close(descriptor)
        guard ok, rename(temporary.path, file(message.id).path) == 0 else {
            unlink(temporary.path)
            throw .unavailable("cannot write in \(directory.path) (errno \(errno))")
        }
        let directoryDescriptor = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryDescriptor >= 0 {
            fsync(directoryDescriptor)
            close(directoryDescriptor)
        }
    }

    public func enqueue(_ message: WebhookMessage) async throws(WebhookOutboxError) {
        guard message.body.count <= Self.maximumBodyBytes else { throw .unavailable("the message is over \(Self.maximumBodyBytes) bytes") }
        let room = entries.withLock { entries -> Bool in
            guard entries.count < maximumMessages, entries[message.id] == nil else { return false }
            entries[message.id] = Entry(message: message, leasedUntil: .distantFuture)
            return true
        }
        guard room else { throw .full(maximum: maximumMessages) }
        do {
            try write(message)
        } catch {
            _ = entries.withLock { $0.removeValue(forKey: message.id) }
            throw error
        }
        entries.withLock { $0[message.id]?.leasedUntil = nil }
    }

    public func claim(now: Date, lease: TimeInterval, limit: Int) async throws(WebhookOutboxError) -> [WebhookMessage] {
        entries.withLock { entries in
            let due = entries.values.filter { $0.message.nextAttemptAt <= now && ($0.leasedUntil.map { $0 <= now } ?? true) }
                .sorted { $0.message.nextAttemptAt < $1.message.nextAttemptAt }.prefix(max(0, limit))
            for entry in due { entries[entry.message.id]?.leasedUntil = now.addingTimeInterval(lease) }
            return due.map(\.message)
        }
    }

    public func delivered(id: String) async throws(WebhookOutboxError) {
        try remove(id)
    }

    public func abandon(id: String) async throws(WebhookOutboxError) {
        try remove(id)
    }

    private func remove(_ id: String) throws(WebhookOutboxError) {
        guard WebhookMessage.isWellFormedID(id) else { return }
        if unlink(file(id).path) != 0 && errno != ENOENT {
            throw .unavailable("cannot remove \(file(id).path) (errno \(errno))")
        }
        _ = entries.withLock { $0.removeValue(forKey: id) }
    }

    public func reschedule(_ message: WebhookMessage) async throws(WebhookOutboxError) {
        try write(message)
        entries.withLock { entries in
            guard entries[message.id] != nil else { return }
            entries[message.id] = Entry(message: message, leasedUntil: nil)
        }
    }

    public func statistics(now: Date) async -> WebhookOutboxStatistics {
        entries.withLock { entries in
            let oldest = entries.values.map(\.message.createdAt).min()
            return WebhookOutboxStatistics(pending: entries.count, oldestAgeSeconds: oldest.map { max(0, now.timeIntervalSince($0)) } ?? 0)
        }
    }
}
