import LongfellowAlgebra
import Synchronization

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
        // Both fields' rows go to one C loop each (GF(2^128): one reduction per point on the hardware path).
        if Field.self == GF2_128.self {
            return rows(values, points: points, used: used) { row, v, n in GF2_128Multiplier.dot(row, v, count: n) }
        }
        if Field.self == Fp256.self, used > 0 {
            return rows(values, points: points, used: used) { row, v, n in Fp256.dot(row, v, count: n) }
        }
        for j in 0..<points {
            var sum = Field.zero
            let row = j * count
            for i in 0..<used { sum = sum + weights[row + i] * values[base + i] }
            out.append(sum)
        }
        return out
    }

    /// Each point's weights row against `values` by `dot`, over the field `Element` that `Field` is.
    func rows<Element>(_ values: ArraySlice<Field>, points: Int, used: Int,
                       _ dot: (UnsafeBufferPointer<Element>, UnsafeBufferPointer<Element>, Int) -> Element) -> [Field] {
        var out: [Field] = []
        out.reserveCapacity(points)
        weights.withUnsafeBufferPointer { w in
            values.withUnsafeBufferPointer { v in
                w.withMemoryRebound(to: Element.self) { we in
                    v.withMemoryRebound(to: Element.self) { ve in
                        for j in 0..<points {
                            out.append(dot(UnsafeBufferPointer(rebasing: we[(j * count)..<((j + 1) * count)]), ve, used) as! Field)
                        }
                    }
                }
            }
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
