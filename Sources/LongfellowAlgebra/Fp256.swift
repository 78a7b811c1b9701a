import CLongfellowCLMUL

/// An element of the P-256 base field, p = 2^256 − 2^224 + 2^192 + 2^96 − 1: the field of Longfellow's signature
/// circuit. Kept in Montgomery form (R = 2^256) in four 64-bit limbs, low limb first; on the wire 32 bytes,
/// little-endian, canonical (below p: anything else is refused, never reduced).
public struct Fp256: Hashable, Sendable, CustomStringConvertible {
    /// The Montgomery form a·R mod p, low limb first.
    var limbs: (UInt64, UInt64, UInt64, UInt64)

    /// p, low limb first.
    static let modulus: (UInt64, UInt64, UInt64, UInt64) = (0xFFFF_FFFF_FFFF_FFFF, 0x0000_0000_FFFF_FFFF, 0, 0xFFFF_FFFF_0000_0001)
    /// R² mod p, to enter Montgomery form.
    static let rSquared: (UInt64, UInt64, UInt64, UInt64) = (0x3, 0xFFFF_FFFB_FFFF_FFFF, 0xFFFF_FFFF_FFFF_FFFE, 0x4_FFFF_FFFD)
    /// Bytes on the wire.
    public static let byteCount = 32

    init(montgomery limbs: (UInt64, UInt64, UInt64, UInt64)) {
        self.limbs = limbs
    }

    public static let zero = Fp256(montgomery: (0, 0, 0, 0))
    /// R mod p.
    /// Σ a[i]·b[i] over the first `count` pairs (one C loop: products and sums without a call per element).
    public static func dot(_ a: UnsafeBufferPointer<Fp256>, _ b: UnsafeBufferPointer<Fp256>, count: Int) -> Fp256 {
        precondition(count <= a.count && count <= b.count, "a dot product past its vectors")
        var out: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        guard count > 0 else { return .zero }
        withUnsafeMutableBytes(of: &out) { o in
            UnsafeRawBufferPointer(a).withMemoryRebound(to: UInt64.self) { x in
                UnsafeRawBufferPointer(b).withMemoryRebound(to: UInt64.self) { y in
                    vd_fp256_dot(x.baseAddress, y.baseAddress, count, o.baseAddress!.assumingMemoryBound(to: UInt64.self))
                }
            }
        }
        return Fp256(montgomery: out)
    }

    public static let one = Fp256(montgomery: (1, 0xFFFF_FFFF_0000_0000, 0xFFFF_FFFF_FFFF_FFFF, 0xFFFF_FFFE))

    /// The element of a value below p given in limbs (low first); nil when it is not below p.
    public init?(canonicalLimbs value: (UInt64, UInt64, UInt64, UInt64)) {
        guard Self.lessThanModulus(value) else { return nil }
        self.init(montgomery: Self.montgomeryMultiply(value, Self.rSquared))
    }

    /// A small integer.
    public init(_ value: UInt64) {
        self.init(canonicalLimbs: (value, 0, 0, 0))!
    }

    /// The element of 32 little-endian bytes; nil unless exactly 32 bytes encoding a value below p.
    public init?(littleEndian bytes: some Collection<UInt8>) {
        guard bytes.count == Self.byteCount else { return nil }
        var words: [UInt64] = [0, 0, 0, 0]
        for (index, byte) in bytes.enumerated() { words[index / 8] |= UInt64(byte) << (8 * (index % 8)) }
        self.init(canonicalLimbs: (words[0], words[1], words[2], words[3]))
    }

    /// The canonical value (below p), low limb first.
    public var canonicalLimbs: (UInt64, UInt64, UInt64, UInt64) {
        Self.montgomeryMultiply(limbs, (1, 0, 0, 0))
    }

    /// The 32 little-endian bytes of the canonical value.
    public var littleEndianBytes: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        append(to: &bytes)
        return bytes
    }

    /// Appends the 32 little-endian bytes of the canonical value.
    public func append(to buffer: inout [UInt8]) {
        let value = canonicalLimbs
        for word in [value.0, value.1, value.2, value.3] {
            for index in 0..<8 { buffer.append(UInt8(truncatingIfNeeded: word >> (8 * index))) }
        }
    }

    public var isZero: Bool { limbs == (0, 0, 0, 0) }

    public static func == (a: Fp256, b: Fp256) -> Bool { a.limbs == b.limbs }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(limbs.0)
        hasher.combine(limbs.1)
        hasher.combine(limbs.2)
        hasher.combine(limbs.3)
    }

    public var description: String {
        let value = canonicalLimbs
        return "Fp256(0x" + [value.3, value.2, value.1, value.0].map { String($0, radix: 16).leftPadded(16) }.joined() + ")"
    }

    static func lessThanModulus(_ value: (UInt64, UInt64, UInt64, UInt64)) -> Bool {
        let p = modulus
        if value.3 != p.3 { return value.3 < p.3 }
        if value.2 != p.2 { return value.2 < p.2 }
        if value.1 != p.1 { return value.1 < p.1 }
        return value.0 < p.0
    }
}
