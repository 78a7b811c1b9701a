/// Decodes base64 from clients: standard or URL-safe alphabet, padding optional, nothing else (no whitespace).
/// Works on the UTF-8 bytes directly; the input size is bounded by the caller (the HTTP body limit).
public enum Base64Input {
    /// 0...63 for alphabet characters (both alphabets), 0xff for anything else.
    static let bothAlphabets: [UInt8] = table(extra: [("+", 62), ("-", 62), ("/", 63), ("_", 63)])
    /// The URL-safe alphabet only.
    static let urlAlphabet: [UInt8] = table(extra: [("-", 62), ("_", 63)])

    static func table(extra: [(Unicode.Scalar, UInt8)]) -> [UInt8] {
        var table = [UInt8](repeating: 0xff, count: 256)
        for (index, character) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8.enumerated() {
            table[Int(character)] = UInt8(index)
        }
        for (character, value) in extra { table[Int(UInt8(ascii: character))] = value }
        return table
    }

    public static func decode(_ text: String) -> [UInt8]? {
        var text = text
        return text.withUTF8 { decode(utf8: $0) }
    }

    static func decode(utf8 input: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var end = input.count
        var padding = 0
        while end > 0, input[end - 1] == UInt8(ascii: "="), padding < 2 {
            end -= 1
            padding += 1
        }
        if padding > 0 && (end + padding) % 4 != 0 { return nil }
        return decode(UnsafeBufferPointer(rebasing: input[0..<end]), table: bothAlphabets)
    }

    /// Decodes unpadded characters with `table`; nil for a character outside it, a length of 4n+1, or non-zero
    /// unused bits in the last character (so every byte string has one accepted spelling).
    static func decode(_ input: UnsafeBufferPointer<UInt8>, table: [UInt8]) -> [UInt8]? {
        let quanta = input.count / 4
        let tail = input.count % 4
        guard tail != 1 else { return nil }
        let capacity = quanta * 3 + (tail == 0 ? 0 : tail - 1)
        guard capacity > 0, let source = input.baseAddress else { return [] }
        var valid = true
        // Whole quanta first, four characters to three bytes, straight into the output's storage, through raw
        // pointers (the table is read through one pointer, so its lazy initializer is not re-checked per character).
        let output = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
            valid = table.withUnsafeBufferPointer { table in
                Self.decode(source, quanta: quanta, tail: tail, table: table, into: buffer.baseAddress!)
            }
            initialized = valid ? capacity : 0
        }
        return valid ? output : nil
    }

    /// The loop of ``decode(_:table:)``: false for a character outside the table or non-zero unused bits.
    private static func decode(_ source: UnsafePointer<UInt8>, quanta: Int, tail: Int, table: UnsafeBufferPointer<UInt8>,
                               into out: UnsafeMutablePointer<UInt8>) -> Bool {
        var input = source
        var output = out
        var bad: UInt8 = 0
        for _ in 0..<quanta {
            let a = table[Int(input[0])], b = table[Int(input[1])]
            let c = table[Int(input[2])], d = table[Int(input[3])]
            bad |= a | b | c | d
            let word = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
            output[0] = UInt8(truncatingIfNeeded: word >> 16)
            output[1] = UInt8(truncatingIfNeeded: word >> 8)
            output[2] = UInt8(truncatingIfNeeded: word)
            output += 3
            input += 4
        }
        // 0xff marks a character outside the alphabet; alphabet values are below 64.
        guard bad & 0xc0 == 0 else { return false }
        switch tail {
        case 2:
            let a = table[Int(input[0])], b = table[Int(input[1])]
            guard (a | b) & 0xc0 == 0, b & 0xf == 0 else { return false }  // otherwise non-canonical trailing bits
            output[0] = a << 2 | b >> 4
        case 3:
            let a = table[Int(input[0])], b = table[Int(input[1])], c = table[Int(input[2])]
            guard (a | b | c) & 0xc0 == 0, c & 0x3 == 0 else { return false }
            output[0] = a << 2 | b >> 4
            output[1] = b << 4 | c >> 2
        default:
            break
        }
        return true
    }
}
