/// An element of GF(2^128) = GF(2)[x] / (x^128 + x^7 + x^2 + x + 1), the field of Longfellow's hash circuit: bit i
/// of the 128-bit little-endian integer is the coefficient of x^i. On the wire 16 bytes, little-endian; every
/// 16-byte string is an element.
public struct GF2_128: Hashable, Sendable, CustomStringConvertible {
    /// Coefficients of x^0 ..< x^64.
    public var low: UInt64
    /// Coefficients of x^64 ..< x^128.
    public var high: UInt64

    public init(low: UInt64, high: UInt64 = 0) {
        self.low = low
        self.high = high
    }

    public static let zero = GF2_128(low: 0)
    public static let one = GF2_128(low: 1)
    /// Bytes on the wire.
    public static let byteCount = 16

    /// The element of 16 little-endian bytes; nil unless exactly 16.
    public init?(littleEndian bytes: some Collection<UInt8>) {
        guard bytes.count == Self.byteCount else { return nil }
        var low: UInt64 = 0, high: UInt64 = 0
        for (index, byte) in bytes.enumerated() {
            if index < 8 { low |= UInt64(byte) << (8 * index) } else { high |= UInt64(byte) << (8 * (index - 8)) }
        }
        self.init(low: low, high: high)
    }

    /// The 16 little-endian bytes.
    public var littleEndianBytes: [UInt8] {
        (0..<16).map { index in UInt8(truncatingIfNeeded: (index < 8 ? low >> (8 * index) : high >> (8 * (index - 8)))) }
    }

    /// Appends the 16 little-endian bytes to `buffer`.
    public func append(to buffer: inout [UInt8]) {
        for index in 0..<8 { buffer.append(UInt8(truncatingIfNeeded: low >> (8 * index))) }
        for index in 0..<8 { buffer.append(UInt8(truncatingIfNeeded: high >> (8 * index))) }
    }

    public var isZero: Bool { low == 0 && high == 0 }

    public var description: String {
        "GF2_128(0x" + String(high, radix: 16).leftPadded(16) + String(low, radix: 16).leftPadded(16) + ")"
    }

    /// Addition (and subtraction) is XOR.
    public static func + (a: GF2_128, b: GF2_128) -> GF2_128 {
        GF2_128(low: a.low ^ b.low, high: a.high ^ b.high)
    }

    public static func - (a: GF2_128, b: GF2_128) -> GF2_128 { a + b }

    public static func += (a: inout GF2_128, b: GF2_128) {
        a.low ^= b.low
        a.high ^= b.high
    }

    public static func * (a: GF2_128, b: GF2_128) -> GF2_128 {
        GF2_128Multiplier.current.multiply(a, b)
    }

    public static func *= (a: inout GF2_128, b: GF2_128) { a = a * b }

    /// a^(2^128 − 2): the inverse of a non-zero element (zero for zero).
    public var inverse: GF2_128 {
        // Square-and-multiply over the exponent 2^128 - 2 = 0b111...110 (127 ones, then a zero).
        var result = GF2_128.one
        var power = self
        power *= power  // self^2: bit 0 of the exponent is 0
        for _ in 1..<128 {
            result *= power
            power *= power
        }
        return result
    }
}

extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
