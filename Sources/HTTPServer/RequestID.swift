#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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

    /// A new random 128-bit ID as 32 lowercase hex digits (the 16 bytes come from one system call).
    static func generate() -> String {
        var random = (UInt64(0), UInt64(0))
        withUnsafeMutableBytes(of: &random) { arc4random_buf($0.baseAddress!, $0.count) }
        let digits: StaticString = "0123456789abcdef"
        return String(unsafeUninitializedCapacity: 32) { out in
            var high = random.0, low = random.1
            for i in 0..<16 {
                out[15 - i] = digits.utf8Start[Int(high & 0xF)]
                out[31 - i] = digits.utf8Start[Int(low & 0xF)]
                high >>= 4
                low >>= 4
            }
            return 32
        }
    }
}
