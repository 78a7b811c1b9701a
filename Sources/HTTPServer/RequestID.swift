/// Validation and generation of request IDs (`X-Request-Id`).
enum RequestID {
    /// Accepts 1...maxLength printable ASCII characters (0x21...0x7E), as sent; anything else is rejected.
    static func validated(_ value: String?, maxLength: Int) -> String? {
        guard let value, !value.isEmpty else { return nil }
        var count = 0
        for b in value.utf8 {
            count += 1
            if count > maxLength || b < 0x21 || b > 0x7E { return nil }
        }
        return value
    }

    /// A new random 128-bit ID as 32 lowercase hex digits.
    static func generate() -> String {
        var rng = SystemRandomNumberGenerator()
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        var out = [UInt8](repeating: 0, count: 32)
        for half in 0..<2 {
            var v = rng.next() as UInt64
            for i in 0..<16 {
                out[half * 16 + 15 - i] = hex[Int(v & 0xF)]
                v >>= 4
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
