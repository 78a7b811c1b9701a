import CLongfellowCLMUL
import LongfellowAlgebra
import Synchronization

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

/// The weights of p(r) on (p(0), p(1), p(third node)) for a polynomial of degree 2.
enum QuadraticLagrange {
    static func weights<Field: LongfellowField>(at r: Field) -> (Field, Field, Field) {
        let x2 = Field.thirdNode
        let one = Field.one
        let (d0, d1, d2) = inverseDenominators(Field.self)
        return ((r - one) * (r - x2) * d0, r * (r - x2) * d1, r * (r - one) * d2)
    }

    /// 1/((0 − 1)(0 − x2)), 1/(1·(1 − x2)), 1/(x2·(x2 − 1)): constants of the field, computed once for the two
    /// fields of the mdoc circuits (three inversions per sumcheck round otherwise).
    static func inverseDenominators<Field: LongfellowField>(_: Field.Type) -> (Field, Field, Field) {
        if Field.self == Fp256.self {
            let (a, b, c) = fpDenominators
            return (a as! Field, b as! Field, c as! Field)
        }
        if Field.self == GF2_128.self {
            let (a, b, c) = gfDenominators
            return (a as! Field, b as! Field, c as! Field)
        }
        return computeDenominators(Field.self)
    }

    static let fpDenominators = computeDenominators(Fp256.self)
    static let gfDenominators = computeDenominators(GF2_128.self)

    static func computeDenominators<Field: LongfellowField>(_: Field.Type) -> (Field, Field, Field) {
        let x2 = Field.thirdNode
        let one = Field.one
        return (((Field.zero - one) * (Field.zero - x2)).inverse, (one * (one - x2)).inverse, (x2 * (x2 - one)).inverse)
    }
}

/// The GF(2^128) barycentric weights by node count: they depend on the count alone (the nodes are the subfield's
/// first points), and a proof needs two counts per circuit, each O(n²) products to compute. At most 16 counts kept.
enum BarycentricWeightCache {
    static let weights = Mutex<[Int: [GF2_128]]>([:])

    static func weights(count: Int, compute: () -> [GF2_128]) -> [GF2_128] {
        if let cached = weights.withLock({ $0[count] }) { return cached }
        let computed = compute()
        weights.withLock { if $0.count < 16 { $0[count] = computed } }
        return computed
    }
}

/// Evaluations of the polynomial of degree < n through (P(0), y_0) … (P(n−1), y_{n−1}) at chosen points, as rows of
/// weights (barycentric form): value at x_j = Σ_i weights[j][i] · y_i.
struct ReedSolomonEvaluator<Field: LongfellowField> {
    let count: Int
    /// weights[j * count + i].
    let weights: [Field]

    init(count n: Int, at points: [Field]) {
        count = n
        let nodes = (0..<n).map(Field.evaluationPoint)
        let baryWeights = Self.barycentricWeights(nodes)
        var weights: [Field] = []
        weights.reserveCapacity(points.count * n)
        for x in points {
            var differences = nodes.map { x - $0 }
            var ell = Field.one
            for difference in differences { ell = ell * difference }
            differences = Self.batchInverse(differences)
            for i in 0..<n { weights.append(ell * baryWeights[i] * differences[i]) }
        }
        self.weights = weights
    }

    /// w_i = 1 / Π_{m≠i}(P(i) − P(m)). With the integers 0 … n−1 as nodes (the P-256 field) that is
    /// (−1)^(n−1−i) / (i!·(n−1−i)!), in linear time; otherwise the products are taken.
    static func barycentricWeights(_ nodes: [Field]) -> [Field] {
        let n = nodes.count
        if Field.self == Fp256.self {
            var factorials: [Field] = [.one]
            for k in 1..<max(n, 1) { factorials.append(factorials[k - 1] * Field.evaluationPoint(k)) }
            let inverses = batchInverse(factorials)
            return (0..<n).map { i in
                let weight = inverses[i] * inverses[n - 1 - i]
                return (n - 1 - i) % 2 == 0 ? weight : Field.zero - weight
            }
        }
        func compute() -> [Field] {
            var denominators = [Field](repeating: .one, count: n)
            for i in 0..<n {
                var product = Field.one
                for m in 0..<n where m != i { product = product * (nodes[i] - nodes[m]) }
                denominators[i] = product
            }
            return batchInverse(denominators)
        }
        if Field.self == GF2_128.self, nodes == (0..<n).map(Field.evaluationPoint) {
            return BarycentricWeightCache.weights(count: n) { compute() as! [GF2_128] } as! [Field]
        }
        return compute()
    }

    /// The values at the points, of the row `values` (its first `count` entries; missing ones are zero).
    func evaluate(_ values: ArraySlice<Field>) -> [Field] {
        let points = weights.count / max(1, count)
        var out: [Field] = []
        out.reserveCapacity(points)
        let base = values.startIndex
        let used = min(count, values.count)
        if Field.self == GF2_128.self {
            // One reduction per point on the hardware path.
            weights.withUnsafeBufferPointer { w in
                values.withUnsafeBufferPointer { v in
                    w.withMemoryRebound(to: GF2_128.self) { wg in
                        v.withMemoryRebound(to: GF2_128.self) { vg in
                            for j in 0..<points {
                                let row = UnsafeBufferPointer(rebasing: wg[(j * count)..<((j + 1) * count)])
                                out.append(GF2_128Multiplier.dot(row, vg, count: used) as! Field)
                            }
                        }
                    }
                }
            }
            return out
        }
        if Field.self == Fp256.self, used > 0 {
            weights.withUnsafeBufferPointer { w in
                values.withUnsafeBufferPointer { v in
                    w.withMemoryRebound(to: Fp256.self) { wf in
                        v.withMemoryRebound(to: Fp256.self) { vf in
                            for j in 0..<points {
                                let row = UnsafeBufferPointer(rebasing: wf[(j * count)..<((j + 1) * count)])
                                out.append(Fp256.dot(row, vf, count: used) as! Field)
                            }
                        }
                    }
                }
            }
            return out
        }
        for j in 0..<points {
            var sum = Field.zero
            let row = j * count
            for i in 0..<used { sum = sum + weights[row + i] * values[base + i] }
            out.append(sum)
        }
        return out
    }

    /// Every inverse at the cost of one (no input may be zero: the points are outside the nodes).
    static func batchInverse(_ values: [Field]) -> [Field] {
        var prefix: [Field] = []
        prefix.reserveCapacity(values.count)
        var running = Field.one
        for value in values {
            prefix.append(running)
            running = running * value
        }
        var inverse = running.inverse
        var out = [Field](repeating: .zero, count: values.count)
        for index in stride(from: values.count - 1, through: 0, by: -1) {
            out[index] = inverse * prefix[index]
            inverse = inverse * values[index]
        }
        return out
    }
}
