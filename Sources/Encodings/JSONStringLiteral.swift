/// The one JSON string escaper of the project (RFC 8259 §7), used by the report and log writer, the HTTP server's
/// problem bodies and the reader-token JWTs.
///
/// Escaped: `"` and `\`; control characters (`\b`, `\f`, `\n`, `\r`, `\t` in their short forms, the others and DEL
/// as `\u00XX`); U+2028 and U+2029 as `\u2028` and `\u2029`, so the text is also safe inside a script. Everything
/// else, `/` and non-ASCII included, is copied as UTF-8, in runs.
public enum JSONStringLiteral {
    /// Appends `text` as a quoted JSON string.
    public static func append(_ text: String, to out: inout [UInt8]) {
        out.append(0x22)
        var text = text
        text.withUTF8 { utf8 in
            var runStart = 0
            var index = 0
            while index < utf8.count {
                let byte = utf8[index]
                let isSeparator = byte == 0xE2 && index + 2 < utf8.count && utf8[index + 1] == 0x80
                    && (utf8[index + 2] == 0xA8 || utf8[index + 2] == 0xA9)
                guard byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F || isSeparator else {
                    index += 1
                    continue
                }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                out.append(0x5C)
                if isSeparator {
                    out.append(contentsOf: utf8[index + 2] == 0xA8 ? Self.lineSeparator : Self.paragraphSeparator)
                    index += 3
                } else {
                    switch byte {
                    case 0x22: out.append(0x22)
                    case 0x5C: out.append(0x5C)
                    case 0x08: out.append(UInt8(ascii: "b"))
                    case 0x0C: out.append(UInt8(ascii: "f"))
                    case 0x0A: out.append(UInt8(ascii: "n"))
                    case 0x0D: out.append(UInt8(ascii: "r"))
                    case 0x09: out.append(UInt8(ascii: "t"))
                    default:
                        out.append(contentsOf: [UInt8(ascii: "u"), 0x30, 0x30, Self.hex[Int(byte >> 4)], Self.hex[Int(byte & 0xF)]])
                    }
                    index += 1
                }
                runStart = index
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
        out.append(0x22)
    }

    /// `text` as a quoted JSON string.
    public static func quoted(_ text: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 2)
        append(text, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// A JSON string's content (the bytes between its quotes) with its escapes resolved (RFC 8259 §7), surrogate
    /// pairs joined; nil for an unknown or cut escape or invalid UTF-8. A lone surrogate is nil too, or U+FFFD with
    /// `replacingLoneSurrogates` (for comparing names as other parsers see them).
    public static func unescaped(_ content: ArraySlice<UInt8>, replacingLoneSurrogates: Bool = false) -> String? {
        var out: [UInt8] = []
        out.reserveCapacity(content.count)
        var index = content.startIndex
        func code(at position: Int) -> UInt32? {
            guard position + 4 <= content.endIndex else { return nil }
            var value: UInt32 = 0
            for digit in content[position..<position + 4] {
                guard let nibble = Hex.value(of: digit) else { return nil }
                value = value << 4 | UInt32(nibble)
            }
            return value
        }
        while index < content.endIndex {
            let byte = content[index]
            index += 1
            guard byte == 0x5C else { out.append(byte); continue }
            guard index < content.endIndex else { return nil }
            let escape = content[index]
            index += 1
            switch escape {
            case 0x22, 0x5C, UInt8(ascii: "/"): out.append(escape)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                guard var value = code(at: index) else { return nil }
                index += 4
                if (0xD800..<0xDC00).contains(value), index + 6 <= content.endIndex, content[index] == 0x5C,
                   content[index + 1] == UInt8(ascii: "u"), let low = code(at: index + 2), (0xDC00..<0xE000).contains(low) {
                    value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
                    index += 6
                }
                guard let scalar = Unicode.Scalar(value) ?? (replacingLoneSurrogates ? "\u{FFFD}" : nil) else { return nil }
                out.append(contentsOf: String(Character(scalar)).utf8)
            default:
                return nil
            }
        }
        return String(validating: out, as: UTF8.self)
    }

    static let hex: [UInt8] = Array("0123456789abcdef".utf8)
    static let lineSeparator: [UInt8] = Array("u2028".utf8)
    static let paragraphSeparator: [UInt8] = Array("u2029".utf8)
}
