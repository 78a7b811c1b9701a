import StrictJSON
import Foundation
import Logging

/// swift-log handler writing one JSON object per line: timestamp, level, logger, message, then the metadata in key
/// order. Integers, floating-point numbers and booleans given as `.stringConvertible` keep their JSON types.
/// Callers never put secrets or personal data in messages or metadata; this handler does not filter.
public struct JSONLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .info
    public let label: String
    public let output: LogOutput

    public init(label: String, output: LogOutput = .standardOutput) {
        self.label = label
        self.output = output
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var fields = metadata
        if let extra = event.metadata { fields.merge(extra) { _, new in new } }
        var writer = Self.beginLine(level: event.level, logger: label, message: event.message.description)
        for key in fields.keys.sorted() {
            guard let value = fields[key] else { continue }
            writer.key(key)
            Self.write(value, into: &writer)
        }
        writer.endObject()
        output.emit(line: writer.bytes)
    }

    /// A line's writer with its fixed leading members written: `timestamp` (UTC, milliseconds), `level`,
    /// `logger` and `message`; the caller adds members in key order and ends the object.
    public static func beginLine(level: Logger.Level, logger: String, message: String) -> JSONWriter {
        var writer = JSONWriter(capacity: 256)
        writer.beginObject()
        writer.key("timestamp")
        writer.timestamp(Date(), milliseconds: true)
        writer.key("level")
        writer.string(level.rawValue)
        writer.key("logger")
        writer.string(logger)
        writer.key("message")
        writer.string(message)
        return writer
    }

    public static func write(_ value: Logger.MetadataValue, into writer: inout JSONWriter) {
        switch value {
        case .string(let s): writer.string(s)
        case .stringConvertible(let c):
            switch c {
            case let n as Int: writer.int(Int64(n))
            case let n as Int64: writer.int(n)
            case let d as Double: writer.double(d)
            case let b as Bool: writer.bool(b)
            default: writer.string(c.description)
            }
        case .array(let items):
            writer.beginArray()
            for item in items { write(item, into: &writer) }
            writer.endArray()
        case .dictionary(let dict):
            writer.beginObject()
            for key in dict.keys.sorted() {
                guard let item = dict[key] else { continue }
                writer.key(key)
                write(item, into: &writer)
            }
            writer.endObject()
        }
    }
}
