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

    static let hex: [UInt8] = Array("0123456789abcdef".utf8)
    static let lineSeparator: [UInt8] = Array("u2028".utf8)
    static let paragraphSeparator: [UInt8] = Array("u2029".utf8)
}
