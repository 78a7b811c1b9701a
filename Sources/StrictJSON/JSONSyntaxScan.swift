import Encodings

/// Finds where a text stops being JSON (RFC 8259), for configuration errors that give a line and column, and the
/// first member name repeated within one object, at any depth: parsers disagree on which of two duplicates wins
/// (Foundation keeps one, Python, JavaScript and Go the last), so a proxy or a client library would read another
/// document than verifierd does. Every JSON input that is not read in place (request bodies, the configuration
/// file, JSON in environment variables, the CLI's JSON input) passes through this scan before Foundation's decoder.
///
/// Names are compared after unescaping (`"a"` and `"\u0061"` are one name) and as Swift strings, so names that
/// are canonically equivalent (a Swift `Dictionary` keeps one of them) are duplicates too. Work is bounded: each
/// byte is read once, depth is at most ``maximumDepth``, and each name is compared with at most
/// ``linearNames`` others before an object's names go into a set; a caller may bound the number of values too
/// (request bodies: ``StrictJSONBody/maximumValues``), since what reads the text next pays per value.
public enum JSONSyntaxScan {
    static let maximumDepth = 256
    /// The most names compared one by one in an object; a larger object's names go into a set.
    static let linearNames = 16

    /// The byte offset and reason of the first error (a duplicate name included), or nil when the text is one
    /// JSON value.
    public static func firstError(_ bytes: [UInt8]) -> (offset: Int, reason: String)? {
        check(bytes).map { ($0.offset, $0.reason) }
    }

    /// The path of the first member name repeated within an object (`anchors[0].docTypes`, `[2].name` when the
    /// text is an array), or nil when there is none or when the text is not JSON.
    public static func duplicateName(in bytes: [UInt8]) -> String? {
        check(bytes)?.duplicate
    }

    /// The first failure: a syntax error, or a duplicate name (with ``Failure/duplicate``).
    public static func check(_ bytes: [UInt8], maximumValues: Int = .max) -> Failure? {
        var scan = Scanner(bytes: bytes)
        scan.valuesLeft = maximumValues
        do throws(Failure) {
            scan.skipSpace()
            try scan.value(depth: 0)
            scan.skipSpace()
            guard scan.index == bytes.count else { throw Failure(offset: scan.index, reason: "text after the end of the JSON value") }
            return nil
        } catch {
            return error
        }
    }

    public struct Failure: Error {
        public let offset: Int
        public let reason: String
        /// For a name that appears twice in one object: its path (names joined by dots, array positions in brackets).
        public var duplicate: String? = nil
    }

    /// A member name: the range between its quotes, and whether it is plain (ASCII, no escapes) so that two
    /// plain names are equal exactly when their bytes are.
    struct Name {
        let range: Range<Int>
        let plain: Bool
    }

    enum Step {
        case name(Name)
        case index(Int)
    }

    struct Scanner {
        let bytes: [UInt8]
        var index = 0
        /// The names of the objects being read, innermost last (each object remembers where its own start).
        var names: [Name] = []
        /// Where the value being read sits.
        var path: [Step] = []
        /// How many more values (of any kind, members and elements included) the text may hold.
        var valuesLeft = Int.max

        init(bytes: [UInt8]) { self.bytes = bytes }

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
            guard valuesLeft > 0 else { throw fail("more values than the limit") }
            valuesLeft -= 1
            switch current {
            case UInt8(ascii: "{"):
                index += 1
                skipSpace()
                if current == UInt8(ascii: "}") { index += 1; return }
                let first = names.count
                var large: Set<String>? = nil
                path.append(.index(0))
                while true {
                    skipSpace()
                    guard current == UInt8(ascii: "\"") else { throw fail("expected a key in double quotes") }
                    let start = index
                    let name = try string()
                    path[path.count - 1] = .name(name)
                    try admit(name, first: first, large: &large, at: start)
                    skipSpace()
                    try expect(UInt8(ascii: ":"), "':' after the key")
                    skipSpace()
                    try value(depth: depth + 1)
                    skipSpace()
                    if current == UInt8(ascii: ",") { index += 1; continue }
                    try expect(UInt8(ascii: "}"), "',' or '}' (a missing comma?)")
                    path.removeLast()
                    names.removeSubrange(first...)
                    return
                }
            case UInt8(ascii: "["):
                index += 1
                skipSpace()
                if current == UInt8(ascii: "]") { index += 1; return }
                path.append(.index(0))
                var position = 0
                while true {
                    skipSpace()
                    path[path.count - 1] = .index(position)
                    try value(depth: depth + 1)
                    skipSpace()
                    if current == UInt8(ascii: ",") { index += 1; position += 1; continue }
                    try expect(UInt8(ascii: "]"), "',' or ']' (a missing comma?)")
                    path.removeLast()
                    return
                }
            case UInt8(ascii: "\""):
                _ = try string()
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

        /// Records a name of the object whose names start at `first`, or throws if the object already has it. A
        /// small object's names are compared one by one (no allocation for plain names); from the
        /// ``linearNames``-th on, they are kept in `large`.
        mutating func admit(_ name: Name, first: Int, large: inout Set<String>?, at offset: Int) throws(Failure) {
            if large != nil {
                guard large!.insert(text(name)).inserted else { throw duplicate(at: offset) }
                return
            }
            for other in names[first...] where same(other, name) { throw duplicate(at: offset) }
            names.append(name)
            if names.count - first >= linearNames {
                large = Set(names[first...].map(text))
                names.removeSubrange(first...)
            }
        }

        func same(_ a: Name, _ b: Name) -> Bool {
            if a.plain && b.plain {
                return a.range.count == b.range.count && bytes[a.range].elementsEqual(bytes[b.range])
            }
            return text(a) == text(b)
        }

        func duplicate(at offset: Int) -> Failure {
            var rendered = ""
            for step in path {
                switch step {
                case .index(let position): rendered += "[\(position)]"
                case .name(let name): rendered += (rendered.isEmpty ? "" : ".") + text(name)
                }
            }
            return Failure(offset: offset, reason: "\"\(rendered)\" appears more than once (a name may appear once in an object)",
                           duplicate: rendered)
        }

        /// A name after unescaping (the scan has checked its escapes); a lone surrogate becomes U+FFFD.
        func text(_ name: Name) -> String {
            guard !name.plain else { return String(decoding: bytes[name.range], as: UTF8.self) }
            return JSONStringLiteral.unescaped(bytes[name.range], replacingLoneSurrogates: true)
                ?? String(decoding: bytes[name.range], as: UTF8.self)
        }

        mutating func literal(_ word: String) throws(Failure) {
            for byte in word.utf8 {
                guard current == byte else { throw fail("expected \(word)") }
                index += 1
            }
        }

        /// Reads a string; returns its content's range and whether it is plain (ASCII without escapes).
        mutating func string() throws(Failure) -> Name {
            index += 1
            let start = index
            var plain = true
            while let byte = current {
                switch byte {
                case UInt8(ascii: "\""): index += 1; return Name(range: start..<index - 1, plain: plain)
                case UInt8(ascii: "\\"):
                    plain = false
                    index += 1
                    switch current {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                         UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"), UInt8(ascii: "u"): break
                    default: throw fail("invalid escape in a string")
                    }
                    let escaped = bytes[index]
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
                case 0x80...: plain = false; index += 1
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
