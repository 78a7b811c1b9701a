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

    /// Returns `value` as a JSON string literal (RFC 8259 §7). Non-ASCII is emitted as UTF-8.
    static func quoted(_ value: String) -> String {
        var out = "\""
        out.reserveCapacity(value.utf8.count + 2)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{00}"..."\u{1F}", "\u{7F}", "\u{2028}", "\u{2029}":
                let hex = String(scalar.value, radix: 16, uppercase: false)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
        return out
    }
}
