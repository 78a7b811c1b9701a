/// IEEE 754 binary16 conversions, written out so they behave the same on every platform.
enum HalfFloat {
    /// The value of a half-precision bit pattern.
    static func double(fromBits bits: UInt16) -> Double {
        let sign: FloatingPointSign = bits & 0x8000 != 0 ? .minus : .plus
        let exponent = Int((bits >> 10) & 0x1f)
        let mantissa = Double(bits & 0x3ff)
        switch exponent {
        case 0:
            return Double(sign: sign, exponent: -24, significand: mantissa)
        case 31:
            if bits & 0x3ff == 0 { return sign == .minus ? -.infinity : .infinity }
            return .nan
        default:
            return Double(sign: sign, exponent: exponent - 25, significand: 1024 + mantissa)
        }
    }

    /// The half-precision bit pattern of `value`, or nil when it cannot be represented exactly.
    static func bits(exactly value: Float) -> UInt16? {
        let raw = value.bitPattern
        let sign = UInt16((raw >> 16) & 0x8000)
        let exponent = Int((raw >> 23) & 0xff)
        let mantissa = raw & 0x7f_ffff
        if value.isNaN { return nil }
        if exponent == 0xff { return sign | 0x7c00 }  // infinity
        if exponent == 0 { return mantissa == 0 ? sign : nil }
        let unbiased = exponent - 127
        if unbiased > 15 { return nil }
        if unbiased >= -14 {
            guard mantissa & 0x1fff == 0 else { return nil }
            return sign | UInt16(unbiased + 15) << 10 | UInt16(mantissa >> 13)
        }
        if unbiased >= -24 {
            let significand = 0x80_0000 | mantissa
            let shift = UInt32(-(unbiased + 1))
            guard significand & ((1 << shift) - 1) == 0 else { return nil }
            return sign | UInt16(significand >> shift)
        }
        return nil
    }
}
