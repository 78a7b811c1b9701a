import Encodings

/// Finds where a text stops being JSON (RFC 8259), for configuration errors that give a line and column. Depth is
/// bounded; the scan reads each byte at most once.
enum JSONSyntaxScan {
    static let maximumDepth = 256

    /// The byte offset and reason of the first error, or nil when the text is one JSON value.
    static func firstError(_ bytes: [UInt8]) -> (offset: Int, reason: String)? {
        var scan = Scanner(bytes: bytes)
        do throws(Failure) {
            scan.skipSpace()
            try scan.value(depth: 0)
            scan.skipSpace()
            guard scan.index == bytes.count else { throw Failure(offset: scan.index, reason: "text after the end of the JSON value") }
            return nil
        } catch {
            return (error.offset, error.reason)
        }
    }

    struct Failure: Error {
        let offset: Int
        let reason: String
    }

    struct Scanner {
        let bytes: [UInt8]
        var index = 0

        var current: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func skipSpace() {
            while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
        }

        func fail(_ reason: String) -> Failure { Failure(offset: index, reason: reason) }

        mutating func expect(_ byte: UInt8, _ what: String) throws(Failure) {
            guard current == byte else { throw fail(current == nil ? "unexpected end of the file, expected \(what)" : "expected \(what)") }
            index += 1
        }

        mutating func value(depth: Int) throws(Failure) {
            guard depth < maximumDepth else { throw fail("nested too deeply") }
            switch current {
            case UInt8(ascii: "{"):
                index += 1
                skipSpace()
                if current == UInt8(ascii: "}") { index += 1; return }
                while true {
                    skipSpace()
                    guard current == UInt8(ascii: "\"") else { throw fail("expected a key in double quotes") }
                    try string()
                    skipSpace()
                    try expect(UInt8(ascii: ":"), "':' after the key")
                    skipSpace()
                    try value(depth: depth + 1)
                    skipSpace()
                    if current == UInt8(ascii: ",") { index += 1; continue }
                    try expect(UInt8(ascii: "}"), "',' or '}' (a missing comma?)")
                    return
                }
            case UInt8(ascii: "["):
                index += 1
                skipSpace()
                if current == UInt8(ascii: "]") { index += 1; return }
                while true {
                    skipSpace()
                    try value(depth: depth + 1)
                    skipSpace()
                    if current == UInt8(ascii: ",") { index += 1; continue }
                    try expect(UInt8(ascii: "]"), "',' or ']' (a missing comma?)")
                    return
                }
            case UInt8(ascii: "\""):
                try string()
            case UInt8(ascii: "t"): try literal("true")
            case UInt8(ascii: "f"): try literal("false")
            case UInt8(ascii: "n"): try literal("null")
            case let byte? where byte == UInt8(ascii: "-") || (0x30...0x39).contains(byte):
                try number()
            case nil:
                throw fail("unexpected end of the file, expected a value")
            default:
                throw fail("expected a value (a string in double quotes, a number, true, false, null, an object or an array)")
            }
        }

        mutating func literal(_ word: String) throws(Failure) {
            for byte in word.utf8 {
                guard current == byte else { throw fail("expected \(word)") }
                index += 1
            }
        }

        mutating func string() throws(Failure) {
            index += 1
            while let byte = current {
                switch byte {
                case UInt8(ascii: "\""): index += 1; return
                case UInt8(ascii: "\\"):
                    index += 1
                    guard let escaped = current, Array("\"\\/bfnrtu".utf8).contains(escaped) else { throw fail("invalid escape in a string") }
                    index += 1
                    if escaped == UInt8(ascii: "u") {
                        for _ in 0..<4 {
                            guard let hex = current, Hex.isDigit(hex) else {
                                throw fail("\\u needs four hex digits")
                            }
                            index += 1
                        }
                    }
                case 0x00..<0x20: throw fail("a control character (such as a line break) inside a string")
                default: index += 1
                }
            }
            throw fail("unterminated string")
        }

        mutating func number() throws(Failure) {
            if current == UInt8(ascii: "-") { index += 1 }
            guard let first = current, (0x30...0x39).contains(first) else { throw fail("a number needs digits") }
            index += 1
            if first != UInt8(ascii: "0") { while let digit = current, (0x30...0x39).contains(digit) { index += 1 } }
            if current == UInt8(ascii: ".") {
                index += 1
                guard let digit = current, (0x30...0x39).contains(digit) else { throw fail("digits expected after '.'") }
                while let digit = current, (0x30...0x39).contains(digit) { index += 1 }
            }
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                index += 1
                if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
                guard let digit = current, (0x30...0x39).contains(digit) else { throw fail("digits expected in the exponent") }
                while let digit = current, (0x30...0x39).contains(digit) { index += 1 }
            }
        }
    }
}
