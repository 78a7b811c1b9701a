/// Hexadecimal digits (either case).
public enum Hex {
    /// Whether `byte` is an ASCII hex digit: 0-9, A-F, a-f.
    public static func isDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }
}

extension Array where Element == UInt8 {
    /// Parses hex (either case); nil for empty input, odd lengths or other characters (no sign, no spaces).
    public init?(hexString: String) {
        let utf8 = Array(hexString.utf8)
        guard !utf8.isEmpty, utf8.count % 2 == 0, utf8.allSatisfy(Hex.isDigit) else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count / 2)
        var index = 0
        while index < utf8.count {
            guard let byte = UInt8(String(decoding: utf8[index..<index + 2], as: UTF8.self), radix: 16) else { return nil }
            bytes.append(byte)
            index += 2
        }
        self = bytes
    }
}
