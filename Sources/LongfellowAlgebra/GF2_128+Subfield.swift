extension GF2_128 {
    /// g = x^((2^128 − 1)/(2^16 − 1)), the generator of the subfield GF(2^16) whose basis g^0 … g^15 the Reed–Solomon
    /// points and the proofs' 2-byte element form use.
    public static let subfieldGenerator = GF2_128(low: 0xF187_1E01_B64F_DA4C, high: 0x5C59_7187_7501_D4B8)

    /// g^0 … g^15.
    static let subfieldBasis: [GF2_128] = {
        var basis: [GF2_128] = [.one]
        for _ in 1..<16 { basis.append(basis[basis.count - 1] * subfieldGenerator) }
        return basis
    }()

    /// Σ bit_i(u) · g^i for every low byte and every high byte of u.
    private static let subfieldTables: (low: [GF2_128], high: [GF2_128]) = {
        func table(_ offset: Int) -> [GF2_128] {
            (0..<256).map { byte in
                (0..<8).reduce(GF2_128.zero) { sum, bit in byte & (1 << bit) == 0 ? sum : sum + subfieldBasis[offset + bit] }
            }
        }
        return (table(0), table(8))
    }()

    /// The subfield element Σ bit_i(u) · g^i: every 16-bit value is one.
    public init(subfield u: UInt16) {
        self = Self.subfieldTables.low[Int(u & 0xFF)] + Self.subfieldTables.high[Int(u >> 8)]
    }
}
