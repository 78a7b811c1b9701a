import Foundation

/// A JSON value with object members in insertion order, and a compact, deterministic serializer.
public indirect enum JSON: Sendable, Equatable {
    case string(String)
    case int(Int64)
    case double(Double)
    case bool(Bool)
    case null
    case array([JSON])
    case object([(String, JSON)])

    public static func == (lhs: JSON, rhs: JSON) -> Bool {
        lhs.serialized() == rhs.serialized()
    }

    /// Builds an object, dropping members whose value is nil.
    public static func object(_ members: [(String, JSON?)]) -> JSON {
        .object(members.compactMap { key, value in value.map { (key, $0) } })
    }

    public func serialized() -> [UInt8] {
        var writer = JSONWriter()
        writer.value(self)
        return writer.bytes
    }

    public var text: String { String(decoding: serialized(), as: UTF8.self) }
}
