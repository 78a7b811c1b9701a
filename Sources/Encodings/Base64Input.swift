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
        let end = input.count
        let remainder = end % 4
        guard remainder != 1 else { return nil }
        // Whole quanta first, four characters to three bytes, straight into the output's storage; the table is
        // read through one pointer (a global's lazy initializer is not re-checked per character).
        let quanta = end / 4
        var tail = end % 4
        var accumulator: UInt32 = 0
        var count = 0
        var valid = true
        let output = [UInt8](unsafeUninitializedCapacity: quanta * 3 + 2) { buffer, initialized in
            table.withUnsafeBufferPointer { table in
                var out = 0
                var index = 0
                for _ in 0..<quanta {
                    let a = table[Int(input[index])], b = table[Int(input[index + 1])]
                    let c = table[Int(input[index + 2])], d = table[Int(input[index + 3])]
                    guard (a | b | c | d) & 0xc0 == 0 else {
                        valid = false
                        break
                    }
                    let word = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
                    buffer[out] = UInt8(truncatingIfNeeded: word >> 16)
                    buffer[out + 1] = UInt8(truncatingIfNeeded: word >> 8)
                    buffer[out + 2] = UInt8(truncatingIfNeeded: word)
                    out += 3
                    index += 4
                }
                while valid && tail > 0 {
                    let value = table[Int(input[index])]
                    if value == 0xff {
                        valid = false
                        break
                    }
                    accumulator = accumulator << 6 | UInt32(value)
                    count += 1
                    index += 1
                    tail -= 1
                }
                if valid && count == 2 && accumulator & 0xf == 0 {  // otherwise non-canonical trailing bits
                    buffer[out] = UInt8(truncatingIfNeeded: accumulator >> 4)
                    out += 1
                } else if valid && count == 3 && accumulator & 0x3 == 0 {
                    buffer[out] = UInt8(truncatingIfNeeded: accumulator >> 10)
                    buffer[out + 1] = UInt8(truncatingIfNeeded: accumulator >> 2)
                    out += 2
                } else if count != 0 {
                    valid = false
                }
            }
            initialized = valid ? (quanta * 3 + (count == 0 ? 0 : count - 1)) : 0
        }
        return valid ? output : nil
    }
}
