import Encodings
import Foundation

/// Compact JSON written straight into one byte buffer: the single serializer behind ``JSON`` values, reports,
/// and log lines. Commas are placed by the writer; callers only say what comes next.
public struct JSONWriter {
    public private(set) var bytes: [UInt8]
    /// Whether the next value or key follows a sibling (and so needs a comma).
    private var needsComma = false

    public init(capacity: Int = 256) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    public mutating func beginObject() { open(UInt8(ascii: "{")) }
    public mutating func endObject() { close(UInt8(ascii: "}")) }
    public mutating func beginArray() { open(UInt8(ascii: "[")) }
    public mutating func endArray() { close(UInt8(ascii: "]")) }

    /// A container's opening bracket: a value in its parent's list, and the start of an empty list of its own.
    private mutating func open(_ bracket: UInt8) {
        separate()
        bytes.append(bracket)
        needsComma = false
    }

    /// A container's closing bracket: the container is now a finished value.
    private mutating func close(_ bracket: UInt8) {
        bytes.append(bracket)
        needsComma = true
    }

    /// An object member's key; its value follows.
    public mutating func key(_ name: String) {
        separate()
        Self.appendQuoted(name, into: &bytes)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    /// A value this writer (or another strict writer) already serialized, copied as is: for embedding a document
    /// whose bytes must stay exactly those another route answers.
    public mutating func serialized(_ json: some Collection<UInt8>) {
        separate()
        bytes.append(contentsOf: json)
        needsComma = true
    }

    public mutating func string(_ value: String) {
        separate()
        Self.appendQuoted(value, into: &bytes)
        needsComma = true
    }

    public mutating func int(_ value: Int64) {
        separate()
        if value < 0 {
            bytes.append(UInt8(ascii: "-"))
            appendDecimal(value.magnitude)
        } else {
            appendDecimal(UInt64(value))
        }
        needsComma = true
    }

    /// A finite number as Swift prints it (shortest round-trip form); not-finite values become `null`.
    public mutating func double(_ value: Double) {
        separate()
        bytes.append(contentsOf: (value.isFinite ? value.description : "null").utf8)
        needsComma = true
    }

    public mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
        needsComma = true
    }

    public mutating func null() {
        separate()
        bytes.append(contentsOf: "null".utf8)
        needsComma = true
    }

    /// Standard, padded base64 of `data` as a JSON string.
    public mutating func base64(_ data: some Collection<UInt8>) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        Base64Output.append(data, into: &bytes)
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    /// An RFC 3339 UTC timestamp as a JSON string.
    public mutating func timestamp(_ date: Date, milliseconds: Bool = false) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        RFC3339Timestamp.append(date, milliseconds: milliseconds, into: &bytes)
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    /// A whole ``JSON`` value.
    public mutating func value(_ value: JSON) {
        switch value {
        case .string(let s): string(s)
        case .int(let n): int(n)
        case .double(let d): double(d)
        case .bool(let b): bool(b)
        case .null: null()
        case .array(let items):
            beginArray()
            for item in items { self.value(item) }
            endArray()
        case .object(let members):
            beginObject()
            for (name, member) in members {
                key(name)
                self.value(member)
            }
            endObject()
        }
    }

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    private mutating func appendDecimal(_ value: UInt64) {
        guard value >= 10 else {
            bytes.append(UInt8(ascii: "0") + UInt8(value))
            return
        }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        var rest = value
        withUnsafeMutableBytes(of: &digits) { buffer in
            while rest > 0 {
                buffer[19 - count] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                count += 1
            }
            bytes.append(contentsOf: buffer[(20 - count)...])
        }
    }

    /// `"text"` as JSON, by the project's one escaper (``JSONStringLiteral``).
    /// Runs of bytes that need no escape are copied in one piece.
    public static func appendQuoted(_ text: String, into out: inout [UInt8]) {
        JSONStringLiteral.append(text, to: &out)
    }
}
