/// Parses one JSON text (RFC 8259) into a ``JSON`` tree that keeps object members in the order received, for inputs
/// whose content is read member by member (SD-JWT payloads and disclosures, status-list tokens).
///
/// Strict and bounded: no text after the value, no byte-order mark, no leading zeros, no unpaired surrogates, no
/// control characters in strings, no member name twice in one object (names compared after unescaping, as
/// ``JSONSyntaxScan`` does), at most ``Limits/maximumDepth`` nesting and ``Limits/maximumValues`` values. Integers
/// that fit in 64 bits are ``JSON/int(_:)``; every other number is a ``JSON/double(_:)`` (finite only).
public enum JSONParser {
    public struct Limits: Sendable {
        public var maximumDepth: Int
        public var maximumValues: Int

        public init(maximumDepth: Int = 32, maximumValues: Int = 8_192) {
            self.maximumDepth = maximumDepth
            self.maximumValues = maximumValues
        }
    }

    /// Why a text was refused, at which byte.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public let offset: Int
        public let reason: String

        public var description: String { "\(reason) at byte \(offset)" }
    }

    public static func parse(_ bytes: [UInt8], limits: Limits = Limits()) throws(Failure) -> JSON {
        var parser = Parser(bytes: bytes, valuesLeft: limits.maximumValues, maximumDepth: limits.maximumDepth)
        parser.skipSpace()
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.index == bytes.count else { throw Failure(offset: parser.index, reason: "text after the end of the JSON value") }
        return value
    }

    private struct Parser {
        let bytes: [UInt8]
        var index = 0
        var valuesLeft: Int
        let maximumDepth: Int

        init(bytes: [UInt8], valuesLeft: Int, maximumDepth: Int) {
            self.bytes = bytes
            self.valuesLeft = valuesLeft
            self.maximumDepth = maximumDepth
        }

        func failure(_ reason: String) -> Failure { Failure(offset: index, reason: reason) }

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        mutating func value(depth: Int) throws(Failure) -> JSON {
            guard depth <= maximumDepth else { throw failure("nested deeper than \(maximumDepth)") }
            valuesLeft -= 1
            guard valuesLeft >= 0 else { throw failure("more values than allowed") }
            guard index < bytes.count else { throw failure("unexpected end of text") }
            switch bytes[index] {
            case UInt8(ascii: "{"): return try object(depth: depth)
            case UInt8(ascii: "["): return try array(depth: depth)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): try literal("true"); return .bool(true)
            case UInt8(ascii: "f"): try literal("false"); return .bool(false)
            case UInt8(ascii: "n"): try literal("null"); return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
            default: throw failure("unexpected byte 0x\(String(bytes[index], radix: 16))")
            }
        }

        mutating func literal(_ word: String) throws(Failure) {
            let expected = Array(word.utf8)
            guard index + expected.count <= bytes.count, bytes[index..<(index + expected.count)].elementsEqual(expected) else {
                throw failure("not a JSON literal")
            }
            index += expected.count
        }

        mutating func object(depth: Int) throws(Failure) -> JSON {
            index += 1
            var members: [(String, JSON)] = []
            var names = Set<String>()
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            }
            while true {
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw failure("a member name must be a string") }
                let nameOffset = index
                let name = try string()
                guard names.insert(name).inserted else {
                    throw Failure(offset: nameOffset, reason: "member name \"\(name.prefix(64))\" appears twice in one object")
                }
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw failure("expected ':'") }
                index += 1
                skipSpace()
                members.append((name, try value(depth: depth + 1)))
                skipSpace()
                guard index < bytes.count else { throw failure("unexpected end of text") }
                if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                guard bytes[index] == UInt8(ascii: "}") else { throw failure("expected ',' or '}'") }
                index += 1
                return .object(members)
            }
        }

        mutating func array(depth: Int) throws(Failure) -> JSON {
            index += 1
            var items: [JSON] = []
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(items)
            }
            while true {
                skipSpace()
                items.append(try value(depth: depth + 1))
                skipSpace()
                guard index < bytes.count else { throw failure("unexpected end of text") }
                if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                guard bytes[index] == UInt8(ascii: "]") else { throw failure("expected ',' or ']'") }
                index += 1
                return .array(items)
            }
        }

        mutating func string() throws(Failure) -> String {
            index += 1
            // The common case, a string without escapes, straight from the input bytes.
            let start = index
            while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\"), bytes[index] >= 0x20 {
                index += 1
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
                guard let text = String(validating: bytes[start..<index], as: UTF8.self) else { throw failure("string is not UTF-8") }
                index += 1
                return text
            }
            index = start
            var out: [UInt8] = []
            var runStart = index
            while true {
                guard index < bytes.count else { throw failure("unterminated string") }
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    out.append(contentsOf: bytes[runStart..<index])
                    index += 1
                    // Valid UTF-8 only: a replacement character would make two different texts one string.
                    guard let text = String(validating: out, as: UTF8.self) else { throw failure("string is not UTF-8") }
                    return text
                }
                if byte < 0x20 { throw failure("control character in a string") }
                if byte != UInt8(ascii: "\\") { index += 1; continue }
                out.append(contentsOf: bytes[runStart..<index])
                index += 1
                guard index < bytes.count else { throw failure("unterminated escape") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escape)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800...0xDBFF).contains(scalar) {
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                            throw failure("unpaired surrogate")
                        }
                        index += 2
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw failure("unpaired surrogate") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(scalar) {
                        throw failure("unpaired surrogate")
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { throw failure("invalid escape") }
                    out.append(contentsOf: Array(String(Character(unicode)).utf8))
                default:
                    throw failure("invalid escape")
                }
                runStart = index
            }
        }

        mutating func hex4() throws(Failure) -> UInt32 {
            guard index + 4 <= bytes.count else { throw failure("unterminated \\u escape") }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[index]
                let digit: UInt32
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
                default: throw failure("invalid \\u escape")
                }
                value = value << 4 | digit
                index += 1
            }
            return value
        }

        mutating func number() throws(Failure) -> JSON {
            let start = index
            var integral = true
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw failure("invalid number") }
            if bytes[index] == UInt8(ascii: "0") {
                index += 1
                if index < bytes.count, isDigit(bytes[index]) { throw failure("leading zero in a number") }
            } else {
                while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                integral = false
                index += 1
                guard index < bytes.count, isDigit(bytes[index]) else { throw failure("invalid fraction") }
                while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                integral = false
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                guard index < bytes.count, isDigit(bytes[index]) else { throw failure("invalid exponent") }
                while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            }
            let text = String(decoding: bytes[start..<index], as: UTF8.self)
            if integral, let value = Int64(text) { return .int(value) }
            guard let value = Double(text), value.isFinite else { throw Failure(offset: start, reason: "number out of range") }
            return .double(value)
        }

        func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
    }
}

extension JSON {
    /// The member `name` of an object (nil for a missing member or a value that is not an object).
    public subscript(member name: String) -> JSON? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == name }?.1
    }

    /// The text of a string value.
    public var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }
}
