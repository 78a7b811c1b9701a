import LongfellowAlgebra

/// The verifier's side of one circuit's sumcheck, as google/longfellow-zk lib/zk/zk_common.h runs it: the statement
/// written to the transcript, each layer's round messages written and challenges drawn, and every claim kept as
/// `known + Σ coefficient · pad` (the proof carries padded values; the pads are committed witness entries). Each
/// layer ends in one linear constraint and one quadratic one (the product of its two claim pads), and the inputs
/// in one linear constraint binding the public inputs and the private witness.
enum SumcheckConstraints {
    /// Writes the statement: the circuit id, each public input, the output (0) and one zero byte per term.
    static func absorbStatement<Field>(_ circuit: LayeredCircuit<Field>, publicInputs: [Field],
                                       into transcript: inout FiatShamirTranscript) {
        transcript.writeBytes(circuit.id)
        for input in publicInputs { transcript.write(input) }
        transcript.write(Field.zero)
        transcript.writeZeros(count: circuit.quadCount)
    }

    static func build<Field>(_ circuit: LayeredCircuit<Field>, publicInputs: [Field], proof: CircuitProof<Field>,
                             transcript: inout FiatShamirTranscript) -> LinearSystem<Field> {
        var system = LinearSystem<Field>()
        let privateCount = circuit.inputCount - circuit.publicInputCount
        _ = transcript.draw(Field.self, count: 40)  // Q: one copy, so unused
        let g = transcript.draw(Field.self, count: 40)
        var logV = CircuitParser<Field>.lg(circuit.outputCount)
        var g0 = Array(g[0..<logV]), g1 = g0
        var claims = (Field.zero, Field.zero)
        var padStart = privateCount
        for (index, layer) in circuit.layers.enumerated() {
            let alpha = transcript.draw(Field.self), beta = transcript.draw(Field.self)
            let logW = layer.logWidth
            let layerProof = proof.layers[index]
            // Frame "with overlap": 0..<3 the previous layer's claim pads, then 2 per round and hand, then 3 claim pads.
            var known = claims.0 + alpha * claims.1
            var symbolic = [Field](repeating: .zero, count: 4 * logW + 6)
            symbolic[0] = .one
            symbolic[1] = alpha
            var h: ([Field], [Field]) = ([], [])
            for round in 0..<logW {
                for hand in 0..<2 {
                    let r = 2 * round + hand
                    let p0 = hand == 0 ? layerProof.p0[round].0 : layerProof.p0[round].1
                    let p2 = hand == 0 ? layerProof.p2[round].0 : layerProof.p2[round].1
                    transcript.write(p0)
                    transcript.write(p2)
                    let challenge = transcript.draw(Field.self)
                    if hand == 0 { h.0.append(challenge) } else { h.1.append(challenge) }
                    let (l0, l1, l2) = QuadraticLagrange.weights(at: challenge)
                    // p(1) = claim − p(0), then claim' = l1·p(1) + l0·p(0) + l2·p(2), pads included.
                    known = known - p0
                    symbolic[3 + 2 * r] = symbolic[3 + 2 * r] - .one
                    known = known * l1
                    for i in symbolic.indices { symbolic[i] = symbolic[i] * l1 }
                    known = known + l0 * p0
                    symbolic[3 + 2 * r] = symbolic[3 + 2 * r] + l0
                    known = known + l2 * p2
                    symbolic[4 + 2 * r] = symbolic[4 + 2 * r] + l2
                }
            }
            let quad = bindQuads(layer, constants: circuit.constants, logV: logV, g0: g0, g1: g1, alpha: alpha, beta: beta,
                                 h0: h.0, h1: h.1)
            let (vl, vr) = (layerProof.leftValue, layerProof.rightValue)
            let claimPad = 3 + 4 * logW
            symbolic[claimPad] = symbolic[claimPad] - quad * vr
            symbolic[claimPad + 1] = symbolic[claimPad + 1] - quad * vl
            symbolic[claimPad + 2] = symbolic[claimPad + 2] - quad
            system.rhs.append(quad * vl * vr - known)
            // Layer 0 has no previous claim pads.
            for i in (index == 0 ? 3 : 0)..<symbolic.count {
                system.terms.append(.init(constraint: index, witness: padStart + i - 3, coefficient: symbolic[i]))
            }
            transcript.write([vl, vr])
            system.quadratic.append((padStart + 4 * logW, padStart + 4 * logW + 1, padStart + 4 * logW + 2))
            claims = (vl, vr)
            logV = logW
            g0 = h.0
            g1 = h.1
            padStart += 4 * logW + 3
        }
        // The inputs: Σ_i (eq(H0, i) + α·eq(H1, i)) · input_i = vl + α·vr of the last layer, pads included.
        let alpha = transcript.draw(Field.self)
        let last = proof.layers[proof.layers.count - 1]
        let eq0 = EqualityTable.make(g0[...], count: circuit.inputCount)
        let eq1 = EqualityTable.make(g1[...], count: circuit.inputCount)
        var publicBinding = Field.zero
        let constraint = circuit.layers.count
        for i in 0..<circuit.inputCount {
            let weight = eq0[i] + alpha * eq1[i]
            if i < circuit.publicInputCount {
                publicBinding = publicBinding + weight * publicInputs[i]
            } else {
                system.terms.append(.init(constraint: constraint, witness: i - circuit.publicInputCount, coefficient: weight))
            }
        }
        system.terms.append(.init(constraint: constraint, witness: padStart - 3, coefficient: Field.zero - .one))
        system.terms.append(.init(constraint: constraint, witness: padStart - 2, coefficient: Field.zero - alpha))
        system.rhs.append(last.leftValue + alpha * last.rightValue - publicBinding)
        return system
    }

    /// Σ over the layer's quads of v · (eq(G0, g) + α·eq(G1, g)) · eq(H0, h0) · eq(H1, h1), where v is the quad's
    /// constant, or β for a zero constant (an assertion that a wire is zero).
    static func bindQuads<Field>(_ layer: LayeredCircuit<Field>.Layer, constants: [Field], logV: Int, g0: [Field], g1: [Field],
                                 alpha: Field, beta: Field, h0: [Field], h1: [Field]) -> Field {
        let eqA = EqualityTable.make(g0[...], count: 1 << logV)
        let eqB = EqualityTable.make(g1[...], count: 1 << logV)
        let eqG = zip(eqA, eqB).map { $0 + alpha * $1 }
        let eqH0 = EqualityTable.make(h0[...], count: 1 << layer.logWidth)
        let eqH1 = EqualityTable.make(h1[...], count: 1 << layer.logWidth)
        let values = constants.map { $0 == Field.zero ? beta : $0 }
        if Field.self == GF2_128.self, GF2_128Multiplier.current == .hardware {
            return QuadBinding.gf2_128(layer, values: values, eqG: eqG, eqH0: eqH0, eqH1: eqH1) as! Field
        }
        var sum = Field.zero
        var g = 0, h0 = 0, h1 = 0
        for index in layer.stepIndexes {
            let step = layer.steps[Int(index)]
            g += Int(step.dg)
            h0 += Int(step.dh0)
            h1 += Int(step.dh1)
            sum = sum + values[Int(step.constant)] * eqG[g] * eqH0[h0] * eqH1[h1]
        }
        return sum
    }
}
