/// PEM text (RFC 7468): the one reader and writer of the project, for certificates and keys alike.
///
/// Reading follows RFC 7468 §2 and §3: lines end in LF, CRLF or CR (mixed too); whitespace (space, tab, vertical
/// tab, form feed) around any line and inside the base64 is ignored; text outside the blocks is explanatory and
/// skipped; a leading UTF-8 byte order mark too. Strict where it matters: the END label must be the BEGIN label, a block must end, the body must be
/// padded standard base64 with no bits beyond the last byte, and a line that starts like a boundary must be one.
/// One pass over the bytes, each byte looked at a bounded number of times.
public enum PEM {
    /// The labels of an unencrypted private key: PKCS#8 and SEC1 (RFC 5915).
    public static let privateKeyLabels: Set<String> = ["PRIVATE KEY", "EC PRIVATE KEY"]

    /// The longest label accepted (the longest in RFC 7468 is 26 characters).
    static let maximumLabelLength = 128

    /// The standard base64 alphabet only (RFC 4648 §4), as ``Base64Input`` tables are made.
    static let alphabet: [UInt8] = Base64Input.table(extra: [("+", 62), ("/", 63)])

    /// Every block of `text`, in order.
    public static func blocks(in text: String) throws(PEMError) -> [PEMBlock] {
        try blocks(in: Array(text.utf8))
    }

    /// Every block of `bytes` (UTF-8 or ASCII text), in order. Text around the blocks is not read as UTF-8.
    public static func blocks(in bytes: [UInt8]) throws(PEMError) -> [PEMBlock] {
        var parser = Parser(alphabet: alphabet)
        var lineNumber = 0
        // A UTF-8 byte order mark (as some Windows editors save) is not part of the first line.
        var position = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while position < bytes.count {
            var end = position
            while end < bytes.count, bytes[end] != 0x0A, bytes[end] != 0x0D { end += 1 }
            lineNumber += 1
            try parser.read(bytes, from: position, to: end, number: lineNumber)
            // CRLF is one line end; a lone CR or LF is one too.
            if end < bytes.count, bytes[end] == 0x0D, end + 1 < bytes.count, bytes[end + 1] == 0x0A {
                position = end + 2
            } else {
                position = end + 1
            }
        }
        return try parser.finish()
    }

    /// PEM text of `bytes`: 64 base64 characters a line, LF line ends, a final LF.
    public static func encode(label: String, bytes: some Collection<UInt8>) -> String {
        var base64: [UInt8] = []
        Base64Output.append(bytes, into: &base64)
        var out: [UInt8] = Array("-----BEGIN \(label)-----\n".utf8)
        out.reserveCapacity(out.count * 2 + base64.count + base64.count / 64 + 2)
        var index = 0
        while index < base64.count {
            let end = min(index + 64, base64.count)
            out += base64[index..<end]
            out.append(0x0A)
            index = end
        }
        out += Array("-----END \(label)-----\n".utf8)
        return String(decoding: out, as: UTF8.self)
    }

    /// Whether `bytes` holds a BEGIN boundary anywhere (explanatory text may come first).
    public static func containsBlock(_ bytes: some Collection<UInt8>) -> Bool {
        let marker = Array("-----BEGIN ".utf8)
        let bytes = Array(bytes)
        guard bytes.count >= marker.count else { return false }
        for start in 0...(bytes.count - marker.count) where bytes[start] == 0x2D {
            if bytes[start..<start + marker.count].elementsEqual(marker) { return true }
        }
        return false
    }

    /// The state of one pass: the open block, if any, and the blocks read so far.
    struct Parser {
        struct Open {
            let label: String
            let line: Int
            let index: Int
            var base64: [UInt8] = []
            var padding = 0
        }

        let alphabet: [UInt8]
        var open: Open?
        var blocks: [PEMBlock] = []
        var count = 0

        static let begin = Array("-----BEGIN".utf8)
        static let end = Array("-----END".utf8)

        /// Space, horizontal tab, vertical tab, form feed: whitespace RFC 7468 lets a parser ignore.
        static func isWhitespace(_ byte: UInt8) -> Bool {
            byte == 0x20 || byte == 0x09 || byte == 0x0B || byte == 0x0C
        }

        mutating func read(_ bytes: [UInt8], from start: Int, to end: Int, number: Int) throws(PEMError) {
            var lower = start, upper = end
            while lower < upper, Self.isWhitespace(bytes[lower]) { lower += 1 }
            while upper > lower, Self.isWhitespace(bytes[upper - 1]) { upper -= 1 }
            let line = bytes[lower..<upper]
            if line.starts(with: Self.begin) {
                guard let label = Self.label(line, prefix: "-----BEGIN ") else { throw .malformedBoundary(line: number) }
                if let open { throw .missingEnd(block: open.index, label: open.label, line: open.line) }
                count += 1
                open = Open(label: label, line: number, index: count)
            } else if line.starts(with: Self.end) {
                guard let label = Self.label(line, prefix: "-----END ") else { throw .malformedBoundary(line: number) }
                guard let current = open else { throw .endWithoutBegin(line: number) }
                guard label == current.label else {
                    throw .labelMismatch(block: current.index, line: current.line, begin: current.label, end: label)
                }
                blocks.append(try Self.decode(current))
                open = nil
            } else if open != nil {
                try body(line, number: number)
            }
            // Anything else outside a block is explanatory text.
        }

        /// Base64 characters of the open block's body; whitespace inside the line is skipped.
        mutating func body(_ line: ArraySlice<UInt8>, number: Int) throws(PEMError) {
            guard var current = open else { return }
            open = nil  // keeps the buffer uniquely referenced while it grows
            defer { open = current }
            func invalid(_ reason: String) -> PEMError {
                .invalidBase64(block: current.index, label: current.label, line: current.line, reason: reason)
            }
            if current.base64.isEmpty, current.padding == 0, line.contains(UInt8(ascii: ":")) {
                throw .headers(block: current.index, label: current.label, line: current.line, headerLine: number)
            }
            for byte in line {
                if Self.isWhitespace(byte) { continue }
                if byte == UInt8(ascii: "=") {
                    current.padding += 1
                    guard current.padding <= 2 else { throw invalid("more than two \"=\" on line \(number)") }
                    continue
                }
                guard alphabet[Int(byte)] != 0xff else {
                    throw invalid("a character outside the base64 alphabet on line \(number)")
                }
                guard current.padding == 0 else { throw invalid("data after the \"=\" padding on line \(number)") }
                current.base64.append(byte)
            }
        }

        func finish() throws(PEMError) -> [PEMBlock] {
            if let open { throw .missingEnd(block: open.index, label: open.label, line: open.line) }
            return blocks
        }

        /// The label of `-----BEGIN label-----` or `-----END label-----` (RFC 7468 §3: printable ASCII but
        /// hyphen-minus, single hyphens or spaces between them), or nil.
        static func label(_ line: ArraySlice<UInt8>, prefix: String) -> String? {
            let prefix = Array(prefix.utf8)
            let suffix = Array("-----".utf8)
            guard line.count >= prefix.count + suffix.count, line.starts(with: prefix),
                  line.suffix(suffix.count).elementsEqual(suffix)
            else { return nil }
            let label = line.dropFirst(prefix.count).dropLast(suffix.count)
            guard label.count <= maximumLabelLength else { return nil }
            // A separator sits between two label characters: never first, last or next to another.
            var afterSeparator = true
            for byte in label {
                if byte == 0x2D || byte == 0x20 {
                    guard !afterSeparator else { return nil }
                    afterSeparator = true
                } else if (0x21...0x7E).contains(byte) {
                    afterSeparator = false
                } else {
                    return nil
                }
            }
            guard label.isEmpty || !afterSeparator else { return nil }
            return String(decoding: label, as: UTF8.self)
        }

        /// The decoded body of a block that ended.
        static func decode(_ block: Open) throws(PEMError) -> PEMBlock {
            func invalid(_ reason: String) -> PEMError {
                .invalidBase64(block: block.index, label: block.label, line: block.line, reason: reason)
            }
            guard !block.base64.isEmpty || block.padding > 0 else {
                throw .emptyBody(block: block.index, label: block.label, line: block.line)
            }
            guard (block.base64.count + block.padding) % 4 == 0 else {
                throw invalid("its length is not a multiple of 4 characters (cut short, or padding missing)")
            }
            let alphabet = PEM.alphabet
            let bytes = block.base64.withUnsafeBufferPointer { Base64Input.decode($0, table: alphabet) }
            guard let bytes, !bytes.isEmpty else { throw invalid("bits after the last byte are set (not canonical)") }
            return PEMBlock(label: block.label, bytes: bytes, index: block.index, line: block.line)
        }
    }
}
