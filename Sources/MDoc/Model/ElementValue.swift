import CBOR
import Foundation

/// A data element value, typed for callers (claims in reports and JSON).
public indirect enum ElementValue: Sendable, Equatable {
    case text(String)
    case integer(Int64)
    /// An integer outside the Int64 range, as its decimal string.
    case bigInteger(String)
    case bool(Bool)
    case bytes([UInt8])
    case float(Double)
    /// RFC 3339 full-date, from tag 1004 or a plain string where the element is a date.
    case fullDate(String)
    /// RFC 3339 date-time (tag 0).
    case tdate(String)
    case array([ElementValue])
    /// Map entries in the order received, keys as strings.
    case map([(key: String, value: ElementValue)])
    case null
    /// Any other tag, with its content.
    case tagged(UInt64, ElementValue)

    public init(_ item: CBORItem) {
        switch item.content {
        case .unsigned(let n): self = n <= UInt64(Int64.max) ? .integer(Int64(n)) : .bigInteger(String(n))
        case .negative(let n):
            if n <= UInt64(Int64.max) {
                self = .integer(-1 - Int64(n))
            } else {
                self = .bigInteger(n == UInt64.max ? "-18446744073709551616" : "-\(n + 1)")
            }
        case .bytes(let b): self = .bytes(Array(b))
        case .text(let s): self = .text(s)
        case .array(let items): self = .array(items.map(ElementValue.init))
        case .map(let pairs): self = .map(pairs.map { (Self.keyString($0.key), ElementValue($0.value)) })
        case .tagged(let tag, let inner):
            if tag == CBORTag.fullDateString, let text = inner.textValue {
                self = .fullDate(text)
            } else if tag == CBORTag.dateTimeString, let text = inner.textValue {
                self = .tdate(text)
            } else {
                self = .tagged(tag, ElementValue(inner))
            }
        case .simple(let v): self = .integer(Int64(v))
        case .bool(let b): self = .bool(b)
        case .null, .undefined: self = .null
        case .float(let d): self = .float(d)
        }
    }

    static func keyString(_ item: CBORItem) -> String {
        if let text = item.textValue { return text }
        if let n = item.intValue { return String(n) }
        return item.kindDescription
    }

    public static func == (lhs: ElementValue, rhs: ElementValue) -> Bool {
        switch (lhs, rhs) {
        case (.text(let a), .text(let b)), (.bigInteger(let a), .bigInteger(let b)), (.fullDate(let a), .fullDate(let b)),
             (.tdate(let a), .tdate(let b)):
            return a == b
        case (.integer(let a), .integer(let b)): return a == b
        case (.bool(let a), .bool(let b)): return a == b
        case (.bytes(let a), .bytes(let b)): return a == b
        case (.float(let a), .float(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.map(let a), .map(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        case (.null, .null): return true
        case (.tagged(let ta, let a), .tagged(let tb, let b)): return ta == tb && a == b
        default: return false
        }
    }
}
