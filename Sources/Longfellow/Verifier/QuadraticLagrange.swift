import LongfellowAlgebra

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
