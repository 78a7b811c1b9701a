import LongfellowAlgebra

/// eq(X, i) = Π_k (bit k of i ? X_k : 1 − X_k) for i < `count`, bit 0 bound to X_0.
enum EqualityTable {
    static func make<Field: LongfellowField>(_ point: ArraySlice<Field>, count: Int) -> [Field] {
        var table: [Field] = [Field.one]
        table.reserveCapacity(1 << point.count)
        // From the last variable to the first: each pass doubles the table and puts the new variable in bit 0.
        for variable in point.reversed() {
            var next: [Field] = []
            next.reserveCapacity(table.count * 2)
            let complement = Field.one - variable
            for value in table {
                next.append(value * complement)
                next.append(value * variable)
            }
            table = next
        }
        if table.count > count { table.removeLast(table.count - count) }
        return table
    }
}

/// The weights of p(r) on (p(0), p(1), p(third node)) for a polynomial of degree 2.
enum QuadraticLagrange {
    static func weights<Field: LongfellowField>(at r: Field) -> (Field, Field, Field) {
        let x2 = Field.thirdNode
        let one = Field.one
        let w0 = (r - one) * (r - x2) * ((Field.zero - one) * (Field.zero - x2)).inverse
        let w1 = r * (r - x2) * (one * (one - x2)).inverse
        let w2 = r * (r - one) * (x2 * (x2 - one)).inverse
        return (w0, w1, w2)
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
        // w_i = 1 / Π_{m≠i}(P(i) − P(m)).
        var denominators = [Field](repeating: .one, count: n)
        for i in 0..<n {
            var product = Field.one
            for m in 0..<n where m != i { product = product * (nodes[i] - nodes[m]) }
            denominators[i] = product
        }
        let baryWeights = Self.batchInverse(denominators)
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

    /// The values at the points, of the row `values` (its first `count` entries; missing ones are zero).
    func evaluate(_ values: ArraySlice<Field>) -> [Field] {
        let points = weights.count / max(1, count)
        var out: [Field] = []
        out.reserveCapacity(points)
        let base = values.startIndex
        let used = min(count, values.count)
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
