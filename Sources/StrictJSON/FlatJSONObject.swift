import Encodings
/// A JSON object whose members are all scalars (strings, numbers, booleans, null), read in one pass over the
/// request body without copying it. Request bodies of the verify endpoints have this shape; anything else (nested
/// values, syntax errors, duplicate names, unusual escapes) makes the reader return nil and the caller falls back
/// to ``JSONSyntaxScan`` (which refuses a duplicate name, at any depth) and Foundation's decoder, which then
/// decide and explain. Names are compared as strings after unescaping, one by one: at most ``maxMembers``.
public struct FlatJSONObject {
    enum Value {
        /// A string's content between its quotes (escapes not yet resolved) and whether it has any.
        case string(Range<Int>, escaped: Bool)
        case number(Range<Int>)
        case bool(Bool)
        case null
    }

    let body: [UInt8]
    private(set) var members: [(name: String, value: Value)] = []

    /// The most members read; a larger object is left to Foundation's decoder.
    static let maxMembers = 32

    public init?(_ body: [UInt8]) {
        self.body = body
        var reader = Reader(bytes: body)
        guard reader.skipWhitespace(), reader.consume(UInt8(ascii: "{")), reader.skipWhitespace() else { return nil }
        if reader.consume(UInt8(ascii: "}")) {
            guard reader.skipWhitespace(), reader.atEnd else { return nil }
            return
        }
        while true {
            guard members.count < Self.maxMembers, let nameRange = reader.string(),
                  let name = Self.text(body, nameRange.range, escaped: nameRange.escaped),
                  !members.contains(where: { $0.name == name }),
                  reader.skipWhitespace(), reader.consume(UInt8(ascii: ":")), reader.skipWhitespace(),
                  let value = reader.scalar()
            else { return nil }
            members.append((name, value))
            guard reader.skipWhitespace() else { return nil }
            if reader.consume(UInt8(ascii: ",")) {
                guard reader.skipWhitespace() else { return nil }
                continue
            }
            guard reader.consume(UInt8(ascii: "}")), reader.skipWhitespace(), reader.atEnd else { return nil }
            return
        }
    }

    func value(_ name: String) -> Value? {
        members.first { $0.name == name }?.value
    }

    /// The text of a string value; nil for invalid UTF-8, a bad escape or a lone surrogate.
    func string(_ range: Range<Int>, escaped: Bool) -> String? {
        Self.text(body, range, escaped: escaped)
    }

    static func text(_ bytes: [UInt8], _ range: Range<Int>, escaped: Bool) -> String? {
        escaped ? JSONStringLiteral.unescaped(bytes[range]) : String(validating: bytes[range], as: UTF8.self)
    }

    /// Where the string starting at `start` ends (its closing quote), and whether it has escapes; nil end for a
    /// control character or no closing quote. Long values (base64 envelopes) dominate request bodies, so eight
    /// bytes are tested at a time for a quote, a backslash or a control character, and only a word that may
    /// hold one is looked at byte by byte.
    static func stringEnd(in buffer: UnsafeRawBufferPointer, from start: Int) -> (Int?, Bool) {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        var index = start
        var escaped = false
        while index < buffer.count {
            if index + 8 <= buffer.count {
                let word = UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                let quote = word ^ (ones &* 0x22), backslash = word ^ (ones &* 0x5c)
                // A byte is zero in `quote` or `backslash`, or below 0x20 in `word`: never a false negative.
                let flagged = ((quote &- ones) & ~quote | (backslash &- ones) & ~backslash
                               | (word &- ones &* 0x20) & ~word) & highs
                if flagged == 0 {
                    index += 8
                    continue
                }
            }
            let byte = buffer[index]
            if byte == UInt8(ascii: "\"") { return (index, escaped) }
            if byte == UInt8(ascii: "\\") {
                escaped = true
                index += 2  // the escaped byte is checked when the text is resolved
            } else if byte < 0x20 {
                return (nil, escaped)
            } else {
                index += 1
            }
        }
        return (nil, escaped)
    }

    /// A cursor over the body.
    private struct Reader {
        let bytes: [UInt8]
        var position = 0

        var atEnd: Bool { position == bytes.count }

        /// Skips JSON whitespace; always true (for use in guard chains).
        mutating func skipWhitespace() -> Bool {
            while position < bytes.count {
                switch bytes[position] {
                case 0x20, 0x09, 0x0a, 0x0d: position += 1
                default: return true
                }
            }
            return true
        }

        mutating func consume(_ byte: UInt8) -> Bool {
            guard position < bytes.count, bytes[position] == byte else { return false }
            position += 1
            return true
        }

        /// A string at the cursor: the range between its quotes and whether it contains escapes.
        mutating func string() -> (range: Range<Int>, escaped: Bool)? {
            guard consume(UInt8(ascii: "\"")) else { return nil }
            let start = position
            let (end, escaped) = bytes.withUnsafeBytes { FlatJSONObject.stringEnd(in: $0, from: start) }
            guard let end else { return nil }
            position = end + 1
            return (start..<end, escaped)
        }

        mutating func scalar() -> Value? {
            guard position < bytes.count else { return nil }
            switch bytes[position] {
            case UInt8(ascii: "\""):
                return string().map { .string($0.range, escaped: $0.escaped) }
            case UInt8(ascii: "t"): return literal("true") ? .bool(true) : nil
            case UInt8(ascii: "f"): return literal("false") ? .bool(false) : nil
            case UInt8(ascii: "n"): return literal("null") ? .null : nil
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number()
            default: return nil  // objects and arrays: not a flat object
            }
        }

        mutating func literal(_ word: StaticString) -> Bool {
            let count = word.utf8CodeUnitCount
            guard position + count <= bytes.count else { return false }
            for offset in 0..<count where bytes[position + offset] != word.utf8Start[offset] { return false }
            position += count
            return true
        }

        /// RFC 8259 number grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
        mutating func number() -> Value? {
            let start = position
            _ = consume(UInt8(ascii: "-"))
            if consume(UInt8(ascii: "0")) {
            } else if digits() == 0 {
                return nil
            }
            if consume(UInt8(ascii: ".")), digits() == 0 { return nil }
            if consume(UInt8(ascii: "e")) || consume(UInt8(ascii: "E")) {
                if !consume(UInt8(ascii: "+")) { _ = consume(UInt8(ascii: "-")) }
                if digits() == 0 { return nil }
            }
            return .number(start..<position)
        }

        mutating func digits() -> Int {
            let start = position
            while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) {
                position += 1
            }
            return position - start
        }
    }
}
