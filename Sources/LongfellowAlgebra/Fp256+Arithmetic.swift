import CLongfellowCLMUL

extension Fp256 {
    public static func + (a: Fp256, b: Fp256) -> Fp256 {
        let (sum, carry) = add(a.limbs, b.limbs)
        // A carry out of 256 bits, or a sum at or above p: subtract p once (both inputs were below p).
        if carry || !lessThanModulus(sum) { return Fp256(montgomery: subtract(sum, modulus).difference) }
        return Fp256(montgomery: sum)
    }

    public static func - (a: Fp256, b: Fp256) -> Fp256 {
        let (difference, borrow) = subtract(a.limbs, b.limbs)
        if borrow { return Fp256(montgomery: add(difference, modulus).sum) }
        return Fp256(montgomery: difference)
    }

    public static prefix func - (a: Fp256) -> Fp256 { zero - a }

    public static func * (a: Fp256, b: Fp256) -> Fp256 {
        Fp256(montgomery: montgomeryMultiply(a.limbs, b.limbs))
    }

    public static func += (a: inout Fp256, b: Fp256) { a = a + b }
    public static func -= (a: inout Fp256, b: Fp256) { a = a - b }
    public static func *= (a: inout Fp256, b: Fp256) { a = a * b }

    /// a^(p−2): the inverse of a non-zero element (zero for zero).
    public var inverse: Fp256 {
        // p − 2, low limb first; square-and-multiply from the top bit.
        let exponent: [UInt64] = [0xFFFF_FFFF_FFFF_FFFD, 0x0000_0000_FFFF_FFFF, 0, 0xFFFF_FFFF_0000_0001]
        var result = Fp256.one
        for word in exponent.reversed() {
            for bit in stride(from: 63, through: 0, by: -1) {
                result *= result
                if (word >> UInt64(bit)) & 1 == 1 { result *= self }
            }
        }
        return result
    }

    typealias Limbs = (UInt64, UInt64, UInt64, UInt64)

    @inline(__always)
    static func add(_ a: Limbs, _ b: Limbs) -> (sum: Limbs, carry: Bool) {
        let (s0, c0) = a.0.addingReportingOverflow(b.0)
        let (t1, c1a) = a.1.addingReportingOverflow(b.1)
        let (s1, c1b) = t1.addingReportingOverflow(c0 ? 1 : 0)
        let (t2, c2a) = a.2.addingReportingOverflow(b.2)
        let (s2, c2b) = t2.addingReportingOverflow(c1a || c1b ? 1 : 0)
        let (t3, c3a) = a.3.addingReportingOverflow(b.3)
        let (s3, c3b) = t3.addingReportingOverflow(c2a || c2b ? 1 : 0)
        return ((s0, s1, s2, s3), c3a || c3b)
    }

    @inline(__always)
    static func subtract(_ a: Limbs, _ b: Limbs) -> (difference: Limbs, borrow: Bool) {
        let (d0, b0) = a.0.subtractingReportingOverflow(b.0)
        let (t1, b1a) = a.1.subtractingReportingOverflow(b.1)
        let (d1, b1b) = t1.subtractingReportingOverflow(b0 ? 1 : 0)
        let (t2, b2a) = a.2.subtractingReportingOverflow(b.2)
        let (d2, b2b) = t2.subtractingReportingOverflow(b1a || b1b ? 1 : 0)
        let (t3, b3a) = a.3.subtractingReportingOverflow(b.3)
        let (d3, b3b) = t3.subtractingReportingOverflow(b2a || b2b ? 1 : 0)
        return ((d0, d1, d2, d3), b3a || b3b)
    }

    /// x + y·z + carry as (high, low): never overflows 128 bits.
    @inline(__always)
    static func multiplyAdd(_ x: UInt64, _ y: UInt64, _ z: UInt64, _ carry: UInt64) -> (high: UInt64, low: UInt64) {
        let product = y.multipliedFullWidth(by: z)
        let (low1, c1) = product.low.addingReportingOverflow(x)
        let (low2, c2) = low1.addingReportingOverflow(carry)
        return (product.high &+ (c1 ? 1 : 0) &+ (c2 ? 1 : 0), low2)
    }

    /// a·b·R⁻¹ mod p, for a, b below p: the C routine (128-bit products), the Swift one below kept as its reference
    /// in the tests.
    @inline(__always)
    static func montgomeryMultiply(_ a: Limbs, _ b: Limbs) -> Limbs {
        var x = a, y = b
        var out: Limbs = (0, 0, 0, 0)
        withUnsafePointer(to: &x) { xp in
            withUnsafePointer(to: &y) { yp in
                withUnsafeMutablePointer(to: &out) { op in
                    vd_fp256_montgomery_multiply(UnsafeRawPointer(xp).assumingMemoryBound(to: UInt64.self),
                                                 UnsafeRawPointer(yp).assumingMemoryBound(to: UInt64.self),
                                                 UnsafeMutableRawPointer(op).assumingMemoryBound(to: UInt64.self))
                }
            }
        }
        return out
    }

    /// a·b·R⁻¹ mod p (CIOS; −p⁻¹ mod 2^64 is 1, as p ≡ −1 mod 2^64), for a, b below p, in Swift.
    static func montgomeryMultiplySwift(_ a: Limbs, _ b: Limbs) -> Limbs {
        let p = modulus
        var t0: UInt64 = 0, t1: UInt64 = 0, t2: UInt64 = 0, t3: UInt64 = 0, t4: UInt64 = 0
        @inline(__always)
        func step(_ word: UInt64) {
            var carry: UInt64
            (carry, t0) = multiplyAdd(t0, a.0, word, 0)
            (carry, t1) = multiplyAdd(t1, a.1, word, carry)
            (carry, t2) = multiplyAdd(t2, a.2, word, carry)
            (carry, t3) = multiplyAdd(t3, a.3, word, carry)
            let (t4sum, t4carry) = t4.addingReportingOverflow(carry)
            t4 = t4sum
            let t5: UInt64 = t4carry ? 1 : 0
            let m = t0
            (carry, _) = multiplyAdd(t0, m, p.0, 0)
            (carry, t0) = multiplyAdd(t1, m, p.1, carry)
            (carry, t1) = multiplyAdd(t2, m, p.2, carry)
            (carry, t2) = multiplyAdd(t3, m, p.3, carry)
            let (sum, overflow) = t4.addingReportingOverflow(carry)
            t3 = sum
            t4 = t5 &+ (overflow ? 1 : 0)
        }
        step(b.0)
        step(b.1)
        step(b.2)
        step(b.3)
        let result = (t0, t1, t2, t3)
        if t4 != 0 || !lessThanModulus(result) { return subtract(result, p).difference }
        return result
    }
}
