import Foundation
import Logging
import Synchronization

/// swift-log handler writing one JSON object per line: timestamp, level, label, message and metadata.
/// Callers never put secrets or personal data in messages or metadata; this handler does not filter.
public struct JSONLogHandler: LogHandler {
    /// Where lines go; stdout by default, an in-memory buffer in tests.
    public typealias Sink = @Sendable (String) -> Void

    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .info
    let label: String
    let sink: Sink

    public init(label: String, sink: @escaping Sink = JSONLogHandler.standardOutput) {
        self.label = label
        self.sink = sink
    }

    private static let outputLock = Mutex(())

    /// Writes a line to standard output atomically.
    public static let standardOutput: Sink = { line in
        outputLock.withLock { _ in
            FileHandle.standardOutput.write(Data((line + "\n").utf8))
        }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var members: [(String, JSON)] = [
            ("timestamp", .string(Date().formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)))),
            ("level", .string(event.level.rawValue)),
            ("logger", .string(label)),
            ("message", .string(event.message.description)),
        ]
        let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
        for key in merged.keys.sorted() {
            if let value = merged[key] { members.append((key, Self.json(value))) }
        }
        sink(JSON.object(members).text)
    }

    static func json(_ value: Logger.MetadataValue) -> JSON {
        switch value {
        case .string(let s): return .string(s)
        case .stringConvertible(let c): return .string(c.description)
        case .array(let items): return .array(items.map(json))
        case .dictionary(let dict): return .object(dict.sorted { $0.key < $1.key }.map { ($0.key, json($0.value)) })
        }
    }
}
