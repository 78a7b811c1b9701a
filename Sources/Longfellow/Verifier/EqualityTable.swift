import CLongfellowCLMUL
import LongfellowAlgebra

/// eq(X, i) = Π_k (bit k of i ? X_k : 1 − X_k) for i < `count`, bit 0 bound to X_0.
enum EqualityTable {
    static func make<Field: LongfellowField>(_ point: ArraySlice<Field>, count: Int) -> [Field] {
        let full = 1 << point.count
        var table = [Field](repeating: .zero, count: full)
        table[0] = .one
        let variables = Array(point)
        // The same passes as ``expand(_:_:)`` in C, over the field's own layout: GF(2^128) as two words (on the
        // hardware path), the P-256 base field as four Montgomery limbs.
        if Field.self == GF2_128.self, GF2_128Multiplier.current == .hardware {
            table.withUnsafeMutableBytes { t in
                variables.withUnsafeBytes { v in
                    vd_gf128_eq_table_clmul(t.baseAddress!.assumingMemoryBound(to: vd_gf128.self),
                                            v.baseAddress?.assumingMemoryBound(to: vd_gf128.self), variables.count)
                }
            }
        } else if Field.self == Fp256.self {
            table.withUnsafeMutableBytes { t in
                variables.withUnsafeBytes { v in
                    vd_fp256_eq_table(t.baseAddress!.assumingMemoryBound(to: UInt64.self),
                                      v.baseAddress?.assumingMemoryBound(to: UInt64.self), variables.count)
                }
            }
        } else {
            expand(&table, variables)
        }
        if full > count { table.removeLast(full - count) }
        return table
    }

    /// The table in Swift, for any field (the portable path, and what the C passes are tested against).
    static func makePortable<Field: LongfellowField>(_ point: ArraySlice<Field>, count: Int) -> [Field] {
        var table = [Field](repeating: .zero, count: 1 << point.count)
        table[0] = .one
        expand(&table, Array(point))
        if table.count > count { table.removeLast(table.count - count) }
        return table
    }

    /// From the last variable to the first: each pass doubles the table in place (from the back) and puts the new
    /// variable in bit 0: T'[2i + 1] = T[i]·X, T'[2i] = T[i] − T'[2i + 1].
    static func expand<Field: LongfellowField>(_ table: inout [Field], _ variables: [Field]) {
        var size = 1
        for variable in variables.reversed() {
            for i in stride(from: size - 1, through: 0, by: -1) {
                let high = table[i] * variable
                table[2 * i] = table[i] - high
                table[2 * i + 1] = high
            }
            size *= 2
        }
    }
}
