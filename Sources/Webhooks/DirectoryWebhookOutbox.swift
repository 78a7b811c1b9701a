import Foundation
import Synchronization

/// The outbox of a single process: one file per message in a directory of its own (0700, files 0600: both set at
/// start, whatever they were), written to a temporary name, flushed to disk and renamed before ``enqueue(_:)``
/// returns, so a message survives a crash or a restart; read back at start. Leases live in memory (one process
/// claims). A body is a report with claim values: it is sealed with ``WebhookSealingKey`` before it reaches the disk.
///
/// File form: the line `verifierd-webhook-v2`, one line `<integrator> <createdMs> <attempts> <nextAttemptMs>`, then
/// the sealed body (nonce ‖ ciphertext ‖ tag). Files of the first version (`verifierd-webhook-v1`, the body in plain
/// text) are read at start and written again sealed. A file that does not read, or does not open with the key, is
/// left in place, named in the error at start.
public final class DirectoryWebhookOutbox: WebhookOutbox {
    static let magic = "verifierd-webhook-v2"
    static let plainMagic = "verifierd-webhook-v1"
    public let directory: URL
    let sealing: WebhookSealingKey
    public let maximumMessages: Int
    public static let maximumBodyBytes = 1 << 20

    private struct Entry {
        var message: WebhookMessage
        var leasedUntil: Date?
    }

    private let entries: Mutex<[String: Entry]>

    /// Opens (creating it when absent) `directory`, sets it to 0700 and its files to 0600 (an outbox another user can
    /// list or read is refused when the mode cannot be set), and reads the messages it holds with `sealing`.
    public init(directory: URL, sealing: WebhookSealingKey, maximumMessages: Int = 10_000) throws(WebhookOutboxError) {
        self.directory = directory
        self.sealing = sealing
        self.maximumMessages = max(1, maximumMessages)
        let manager = FileManager.default
        var loaded: [String: Entry] = [:]
        var plain: [WebhookMessage] = []
        do {
            try manager.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try Self.restrict(directory.path, to: 0o700)
            for name in try manager.contentsOfDirectory(atPath: directory.path) {
                if name.hasPrefix(".tmp-") {
                    try? manager.removeItem(at: directory.appendingPathComponent(name))
                    continue
                }
                guard name.hasSuffix(".msg") else { continue }
                let id = String(name.dropLast(4))
                try Self.restrict(directory.appendingPathComponent(name).path, to: 0o600)
                let data = try Data(contentsOf: directory.appendingPathComponent(name))
                guard WebhookMessage.isWellFormedID(id), let (message, sealed) = Self.decode(id: id, Array(data), sealing: sealing) else {
                    throw WebhookOutboxError.unavailable("\(directory.path)/\(name) is not a webhook message this version wrote, "
                                                         + "or does not open with webhooks.outboxKeyFile")
                }
                if !sealed { plain.append(message) }
                loaded[id] = Entry(message: message, leasedUntil: nil)
            }
        } catch let error as WebhookOutboxError {
            throw error
        } catch {
            throw .unavailable("\(directory.path): \(error.localizedDescription)")
        }
        entries = Mutex(loaded)
        // Messages of the first version, written before bodies were sealed: sealed now, in place.
        for message in plain { try write(message) }
    }

    /// Sets `path`'s permission bits to `mode` (owner only); refuses when they cannot be set.
    static func restrict(_ path: String, to mode: mode_t) throws(WebhookOutboxError) {
        var status = stat()
        guard lstat(path, &status) == 0 else { throw .unavailable("cannot read the mode of \(path) (errno \(errno))") }
        guard status.st_mode & 0o7777 != mode else { return }
        guard chmod(path, mode) == 0 else {
            throw .unavailable("\(path) has mode \(String(status.st_mode & 0o7777, radix: 8)) and cannot be set to "
                               + "\(String(mode, radix: 8)) (errno \(errno)): the outbox holds results for this service's user only")
        }
    }

    func encode(_ message: WebhookMessage) throws(WebhookOutboxError) -> [UInt8] {
        let head = "\(Self.magic)\n\(message.integrator) \(Int64(message.createdAt.timeIntervalSince1970 * 1000)) \(message.attempts) "
            + "\(Int64(message.nextAttemptAt.timeIntervalSince1970 * 1000))\n"
        return Array(head.utf8) + (try sealing.seal(message.body, id: message.id, integrator: message.integrator))
    }

    /// The message in `bytes`, and whether its body was sealed (nil when the file is neither version, or a sealed
    /// body does not open).
    static func decode(id: String, _ bytes: [UInt8], sealing: WebhookSealingKey) -> (WebhookMessage, sealed: Bool)? {
        guard bytes.count <= maximumBodyBytes + 512 else { return nil }
        var lines: [Substring.UTF8View] = []
        var start = 0
        for (index, byte) in bytes.enumerated() where byte == 0x0A && lines.count < 2 {
            lines.append(Substring(decoding: bytes[start..<index], as: UTF8.self).utf8)
            start = index + 1
        }
        guard lines.count == 2 else { return nil }
        let version = String(Substring(lines[0]))
        guard version == magic || version == plainMagic else { return nil }
        let fields = String(Substring(lines[1])).split(separator: " ", omittingEmptySubsequences: false)
        guard fields.count == 4, !fields[0].isEmpty, let created = Int64(fields[1]), let attempts = Int(fields[2]), attempts >= 0,
              let next = Int64(fields[3]) else { return nil }
        let integrator = String(fields[0])
        var body = Array(bytes[start...])
        if version == magic {
            guard let opened = sealing.open(body, id: id, integrator: integrator) else { return nil }
            body = opened
        }
        return (WebhookMessage(id: id, integrator: integrator, body: body,
                               createdAt: Date(timeIntervalSince1970: Double(created) / 1000), attempts: attempts,
                               nextAttemptAt: Date(timeIntervalSince1970: Double(next) / 1000)), version == magic)
    }

    private func file(_ id: String) -> URL { directory.appendingPathComponent("\(id).msg") }

    /// Writes the message's file durably (temporary file, fsync, rename, fsync of the directory).
    private func write(_ message: WebhookMessage) throws(WebhookOutboxError) {
        let bytes = try encode(message)
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
