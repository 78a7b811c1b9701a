/// Hexadecimal digits (either case).
public enum Hex {
    /// The value of an ASCII hex digit (0-9, A-F, a-f), or nil for any other byte.
    public static func value(of byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }

    /// Whether `byte` is an ASCII hex digit: 0-9, A-F, a-f.
    public static func isDigit(_ byte: UInt8) -> Bool { value(of: byte) != nil }
}

extension Array where Element == UInt8 {
    /// Parses hex (either case); nil for empty input, odd lengths or other characters (no sign, no spaces).
    public init?(hexString: String) {
        let utf8 = Array(hexString.utf8)
        guard !utf8.isEmpty, utf8.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count / 2)
        for index in stride(from: 0, to: utf8.count, by: 2) {
            guard let high = Hex.value(of: utf8[index]), let low = Hex.value(of: utf8[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        self = bytes
    }
}
