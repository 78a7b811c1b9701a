/// Base64 (RFC 4648) written straight into a byte buffer: the standard alphabet with padding (as
/// `Data.base64EncodedString()` writes it) or the URL-safe alphabet without.
public enum Base64Output {
    private static let standard: StaticString = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    private static let urlSafe: StaticString = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

    /// Appends the encoding of `bytes` to `out`: standard and padded, or URL-safe and unpadded.
    public static func append(_ bytes: some Collection<UInt8>, urlSafe: Bool = false, into out: inout [UInt8]) {
        let done: Void? = bytes.withContiguousStorageIfAvailable { append($0, urlSafe: urlSafe, into: &out) }
        if done == nil {
            Array(bytes).withUnsafeBufferPointer { append($0, urlSafe: urlSafe, into: &out) }
        }
    }

    private static func append(_ input: UnsafeBufferPointer<UInt8>, urlSafe: Bool, into out: inout [UInt8]) {
        let table = (urlSafe ? Self.urlSafe : Self.standard).utf8Start
        let whole = input.count / 3
        let rest = input.count - whole * 3
        let length = whole * 4 + (rest == 0 ? 0 : (urlSafe ? rest + 1 : 4))
        let start = out.count
        out.append(contentsOf: repeatElement(0, count: length))
        out.withUnsafeMutableBufferPointer { buffer in
            var o = start
            var i = 0
            for _ in 0..<whole {
                let n = UInt32(input[i]) << 16 | UInt32(input[i + 1]) << 8 | UInt32(input[i + 2])
                buffer[o] = table[Int(n >> 18 & 63)]
                buffer[o + 1] = table[Int(n >> 12 & 63)]
                buffer[o + 2] = table[Int(n >> 6 & 63)]
                buffer[o + 3] = table[Int(n & 63)]
                i += 3
                o += 4
            }
            guard rest > 0 else { return }
            let n = UInt32(input[i]) << 16 | (rest == 2 ? UInt32(input[i + 1]) << 8 : 0)
            buffer[o] = table[Int(n >> 18 & 63)]
            buffer[o + 1] = table[Int(n >> 12 & 63)]
            if rest == 2 { buffer[o + 2] = table[Int(n >> 6 & 63)] }
            if !urlSafe {
                if rest == 1 { buffer[o + 2] = UInt8(ascii: "=") }
                buffer[o + 3] = UInt8(ascii: "=")
            }
        }
    }
}
