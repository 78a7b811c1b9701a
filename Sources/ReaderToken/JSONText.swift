import Encodings
/// Minimal deterministic JSON writer for the fixed-shape JWT header and payload.
enum JSONText {
    /// A JSON member value.
    enum Value {
        case string(String)
        case integer(Int64)
    }

    /// Writes an object with members in the given order, compact (no whitespace).
    static func object(_ members: KeyValuePairs<String, Value>) -> String {
        var out = "{"
        var first = true
        for (key, value) in members {
            if !first { out += "," }
            first = false
            out += quoted(key)
            out += ":"
            switch value {
            case let .string(s): out += quoted(s)
            case let .integer(n): out += String(n)
            }
        }
        out += "}"
        return out
    }

    /// `value` as a JSON string literal (RFC 8259 §7), by the project's one escaper.
    static func quoted(_ value: String) -> String {
        JSONStringLiteral.quoted(value)
    }
}
