import LongfellowAlgebra

/// What a circuit's sumcheck leaves for Ligero to check about the committed witness W: linear constraints
/// Σ coefficient · W[witness] = rhs[constraint], and quadratic ones W[x] · W[y] = W[z].
struct LinearSystem<Field: LongfellowField> {
    struct Term {
        let constraint: Int
        let witness: Int
        let coefficient: Field
    }

    var terms: [Term] = []
    var rhs: [Field] = []
    var quadratic: [(x: Int, y: Int, z: Int)] = []
}
