/// Decodes base64 from clients: standard or URL-safe alphabet, padding optional, nothing else (no whitespace).
/// Works on the UTF-8 bytes directly; the input size is bounded by the HTTP body limit.
enum Base64Input {
    /// 0...63 for alphabet characters (both alphabets), 0xff for anything else.
    private static let table: [UInt8] = {
        var table = [UInt8](repeating: 0xff, count: 256)
        for (index, character) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8.enumerated() {
            table[Int(character)] = UInt8(index)
        }
        table[Int(UInt8(ascii: "+"))] = 62
        table[Int(UInt8(ascii: "-"))] = 62
        table[Int(UInt8(ascii: "/"))] = 63
        table[Int(UInt8(ascii: "_"))] = 63
        return table
    }()

    static func decode(_ text: String) -> [UInt8]? {
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
        let remainder = end % 4
        guard remainder != 1 else { return nil }
        if padding > 0 && (end + padding) % 4 != 0 { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(end / 4 * 3 + 2)
        var accumulator: UInt32 = 0
        var count = 0
        for index in 0..<end {
            let value = table[Int(input[index])]
            guard value != 0xff else { return nil }
            accumulator = accumulator << 6 | UInt32(value)
            count += 1
            if count == 4 {
                output.append(UInt8(truncatingIfNeeded: accumulator >> 16))
                output.append(UInt8(truncatingIfNeeded: accumulator >> 8))
                output.append(UInt8(truncatingIfNeeded: accumulator))
                accumulator = 0
                count = 0
            }
        }
        switch count {
        case 2:
            guard accumulator & 0xf == 0 else { return nil }  // non-canonical trailing bits
            output.append(UInt8(truncatingIfNeeded: accumulator >> 4))
        case 3:
            guard accumulator & 0x3 == 0 else { return nil }
            output.append(UInt8(truncatingIfNeeded: accumulator >> 10))
            output.append(UInt8(truncatingIfNeeded: accumulator >> 2))
        default:
            break
        }
        return output
    }
}
