import CLongfellowCLMUL
#if canImport(Glibc)
import Glibc
#endif

/// How GF(2^128) products are computed: the CPU's carry-less multiplication when it has one (x86-64 PCLMULQDQ,
/// checked once), else the portable path (4-bit windows over 64-bit words). Both give the same products; the tests
/// compare them on random pairs.
public enum GF2_128Multiplier: Sendable {
    case hardware
    case portable

    /// The path this process uses: the hardware one when the CPU has it, unless `VERIFIERD_LONGFELLOW_PORTABLE=1` asks
    /// for the portable one (how the tests run a whole verification on it on a CPU that has PCLMULQDQ).
    public static let current: GF2_128Multiplier = {
        if let value = getenv("VERIFIERD_LONGFELLOW_PORTABLE"), String(cString: value) == "1" { return .portable }
        return vd_cpu_has_clmul() == 1 ? .hardware : .portable
    }()

    /// Whether this CPU has the hardware path at all.
    public static var hardwareAvailable: Bool { vd_cpu_has_clmul() == 1 }

    @inline(__always)
    public func multiply(_ a: GF2_128, _ b: GF2_128) -> GF2_128 {
        switch self {
        case .hardware:
            let product = vd_gf128_mul_clmul(vd_gf128(low: a.low, high: a.high), vd_gf128(low: b.low, high: b.high))
            return GF2_128(low: product.low, high: product.high)
        case .portable:
            return Self.portableMultiply(a, b)
        }
    }

    /// Σ a[i]·b[i] over the first `count` pairs, each reduced once at the end on the hardware path.
    public static func dot(_ a: UnsafeBufferPointer<GF2_128>, _ b: UnsafeBufferPointer<GF2_128>, count: Int) -> GF2_128 {
        precondition(count <= a.count && count <= b.count, "a dot product past its vectors")
        if current == .hardware, count > 0 {
            let sum = a.withMemoryRebound(to: vd_gf128.self) { x in
                b.withMemoryRebound(to: vd_gf128.self) { y in vd_gf128_dot_clmul(x.baseAddress, y.baseAddress, count) }
            }
            return GF2_128(low: sum.low, high: sum.high)
        }
        var sum = GF2_128.zero
        for i in 0..<count { sum += a[i] * b[i] }
        return sum
    }

    /// The carry-less product of two 64-bit polynomials, as (high, low) words.
    static func carrylessMultiply(_ a: UInt64, _ b: UInt64) -> (high: UInt64, low: UInt64) {
        // Multiples of a by every 4-bit polynomial (each at most 67 bits: the high word keeps 3 bits).
        var tableLow = InlineArray<16, UInt64>(repeating: 0)
        var tableHigh = InlineArray<16, UInt64>(repeating: 0)
        for index in 1..<16 {
            var low: UInt64 = 0, high: UInt64 = 0
            for bit in 0..<4 where index & (1 << bit) != 0 {
                low ^= a << UInt64(bit)
                high ^= bit == 0 ? 0 : a >> UInt64(64 - bit)
            }
            tableLow[index] = low
            tableHigh[index] = high
        }
        var low: UInt64 = 0, high: UInt64 = 0
        var shift = 60
        while shift >= 0 {
            // (high:low) <<= 4, then add the multiple for this nibble of b.
            high = (high << 4) | (low >> 60)
            low <<= 4
            let nibble = Int((b >> UInt64(shift)) & 0xF)
            low ^= tableLow[nibble]
            high ^= tableHigh[nibble]
            shift -= 4
        }
        return (high, low)
    }

    /// Karatsuba over 64-bit words and the reduction by x^128 = x^7 + x^2 + x + 1, without the CPU's help.
    static func portableMultiply(_ a: GF2_128, _ b: GF2_128) -> GF2_128 {
        let low = carrylessMultiply(a.low, b.low)
        let high = carrylessMultiply(a.high, b.high)
        let middle = carrylessMultiply(a.low ^ a.high, b.low ^ b.high)
        let p0 = low.low
        var p1 = low.high ^ middle.low ^ low.low ^ high.low
        var p2 = high.low ^ middle.high ^ low.high ^ high.high
        let p3 = high.high
        let fold3 = carrylessMultiply(p3, 0x87)
        p1 ^= fold3.low
        p2 ^= fold3.high
        let fold2 = carrylessMultiply(p2, 0x87)
        return GF2_128(low: p0 ^ fold2.low, high: p1 ^ fold2.high)
    }
}
