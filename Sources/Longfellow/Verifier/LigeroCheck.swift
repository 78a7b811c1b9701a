import Crypto
import LongfellowAlgebra

/// Ligero's verifier (google/longfellow-zk lib/ligero/ligero_verifier.h): challenges for the low-degree, linear and
/// quadratic tests, the opened columns chosen, then four checks: the Merkle multiproof of the opened columns, the
/// low-degree test, the inner product with the linear constraints (and its claimed sum), and the quadratic test.
enum LigeroCheck {
    enum Failure: String, Error {
        case merkle = "the opened columns are not the committed ones"
        case lowDegree = "the low-degree test failed"
        case dotProduct = "the linear constraints do not hold"
        case dotSum = "the linear constraints' sum is not the claimed one"
        case quadratic = "the quadratic constraints do not hold"
    }

    static func verify<Field>(_ proof: CircuitProof<Field>, parameters p: LigeroParameters, system: LinearSystem<Field>,
                              transcript: inout FiatShamirTranscript) throws(Failure) {
        transcript.writeBytes([0xDE, 0xAD, 0xBE, 0xEF] + [UInt8](repeating: 0, count: 28))
        let nreq = p.requiredColumns
        let uLowDegree = transcript.draw(Field.self, count: p.committedRows)
        let alphaLinear = transcript.draw(Field.self, count: system.rhs.count)
        let alphaQuadratic = transcript.draw(Field.self, count: 3 * system.quadratic.count)
        let uQuadratic = transcript.draw(Field.self, count: p.quadraticTriples)
        transcript.write(proof.lowDegreeResponse)
        transcript.write(proof.dotResponse)
        transcript.write(proof.quadraticResponse0)
        transcript.write(proof.quadraticResponse2)
        let chosen = transcript.choose(nreq, below: p.extendedBlock)

        // Merkle: leaf j = SHA-256(nonce_j ‖ every row's value in column j, full width).
        var leaves: [[UInt8]] = []
        for j in 0..<nreq {
            var bytes = proof.nonces[j]
            for row in 0..<p.rows { proof.columns[row * nreq + j].append(to: &bytes) }
            leaves.append(Array(SHA256.hash(data: bytes)))
        }
        guard MerkleMultiproof.verify(root: proof.root, leafCount: p.extendedBlock, positions: chosen, leaves: leaves,
                                      digests: proof.digests)
        else { throw .merkle }

        func column(_ row: Int) -> ArraySlice<Field> { proof.columns[(row * nreq)..<((row + 1) * nreq)] }
        let points = chosen.map { Field.evaluationPoint(p.doubleBlock + $0) }
        let blockEvaluator = ReedSolomonEvaluator<Field>(count: p.block, at: points)
        let doubleEvaluator = ReedSolomonEvaluator<Field>(count: p.doubleBlock, at: points)
        let witnessRow = 3

        // Low degree: row 0 + Σ u_i · row (3 + i) is the codeword of the low-degree response.
        var combined = Array(column(0))
        for i in 0..<p.committedRows {
            let row = column(witnessRow + i)
            for j in 0..<nreq { combined[j] = combined[j] + uLowDegree[i] * row[row.startIndex + j] }
        }
        guard blockEvaluator.evaluate(proof.lowDegreeResponse[...]) == combined else { throw .lowDegree }

        // The inner-product vector A of the linear and quadratic constraints.
        var a = [Field](repeating: .zero, count: p.committedRows * p.width)
        for term in system.terms {
            a[term.witness] = a[term.witness] + term.coefficient * alphaLinear[term.constraint]
        }
        let ax = p.witnessRows * p.width, ay = ax + p.quadraticTriples * p.width, az = ay + p.quadraticTriples * p.width
        for (index, triple) in system.quadratic.enumerated() {
            let (qx, qy, qz) = (alphaQuadratic[3 * index], alphaQuadratic[3 * index + 1], alphaQuadratic[3 * index + 2])
            a[ax + index] = a[ax + index] + qx
            a[triple.x] = a[triple.x] - qx
            a[ay + index] = a[ay + index] + qy
            a[triple.y] = a[triple.y] - qy
            a[az + index] = a[az + index] + qz
            a[triple.z] = a[triple.z] - qz
        }
        var dot = Array(column(1))
        for i in 0..<p.committedRows {
            let extended = blockEvaluator.evaluate(([Field](repeating: .zero, count: nreq) + a[(i * p.width)..<((i + 1) * p.width)])[...])
            let row = column(witnessRow + i)
            for j in 0..<nreq { dot[j] = dot[j] + extended[j] * row[row.startIndex + j] }
        }
        guard doubleEvaluator.evaluate(proof.dotResponse[...]) == dot else { throw .dotProduct }
        var want = Field.zero
        for (value, weight) in zip(system.rhs, alphaLinear) { want = want + value * weight }
        var claimed = Field.zero
        for k in nreq..<(nreq + p.width) { claimed = claimed + proof.dotResponse[k] }
        guard want == claimed else { throw .dotSum }

        // Quadratic: row 2 + Σ u_i · (z_i − x_i · y_i) is the codeword of [y_quad_0 ‖ 0 … ‖ y_quad_2].
        var quadratic = Array(column(2))
        let qxRow = witnessRow + p.witnessRows, qyRow = qxRow + p.quadraticTriples, qzRow = qyRow + p.quadraticTriples
        for i in 0..<p.quadraticTriples {
            let x = column(qxRow + i), y = column(qyRow + i), z = column(qzRow + i)
            for j in 0..<nreq {
                let term = z[z.startIndex + j] - y[y.startIndex + j] * x[x.startIndex + j]
                quadratic[j] = quadratic[j] + uQuadratic[i] * term
            }
        }
        let response = proof.quadraticResponse0 + [Field](repeating: .zero, count: p.width) + proof.quadraticResponse2
        guard doubleEvaluator.evaluate(response[...]) == quadratic else { throw .quadratic }
    }
}
