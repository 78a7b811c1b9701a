import LongfellowAlgebra

/// One circuit's part of a Longfellow proof, read by the circuit's shape and its Ligero parameters: the commitment's
/// Merkle root, the sumcheck messages of every layer, Ligero's responses, the opened columns (each column's nonce
/// and its value in every row) and the Merkle multiproof.
public struct CircuitProof<Field: LongfellowField>: Sendable {
    /// One layer's sumcheck: per round, the polynomial's values at 0 and at the third node for each hand, then the
    /// claimed values of the two inputs.
    public struct LayerProof: Sendable {
        public let p0: [(Field, Field)]
        public let p2: [(Field, Field)]
        public let leftValue: Field
        public let rightValue: Field
    }

    public let root: [UInt8]
    public let layers: [LayerProof]
    public let lowDegreeResponse: [Field]
    public let dotResponse: [Field]
    public let quadraticResponse0: [Field]
    public let quadraticResponse2: [Field]
    /// One 32-byte nonce per opened column.
    public let nonces: [[UInt8]]
    /// rows × requiredColumns values: row r's value in the j-th opened column at r · requiredColumns + j.
    public let columns: [Field]
    public let digests: [[UInt8]]

    /// How a field writes an opened value in a short run: GF(2^128) as 2 bytes of the subfield, P-256 in full.
    static func subfieldElement(_ reader: inout ProofReader) throws(ProofFormatError) -> Field {
        if Field.self == GF2_128.self {
            let raw = try reader.take(2)
            let value = UInt16(raw[raw.startIndex]) | UInt16(raw[raw.startIndex + 1]) << 8
            return GF2_128(subfield: value) as! Field
        }
        return try reader.element(Field.self)
    }

    /// Bytes of one value in a short run.
    static var subfieldByteCount: Int { Field.self == GF2_128.self ? 2 : Field.byteCount }

    init(reading reader: inout ProofReader, logWidths: [Int], parameters: LigeroParameters) throws(ProofFormatError) {
        root = Array(try reader.take(32))
        var layers: [LayerProof] = []
        for logWidth in logWidths {
            var p0: [(Field, Field)] = [], p2: [(Field, Field)] = []
            for _ in 0..<logWidth {
                // On the wire: p0 of both hands, then p2 of both hands.
                let a = try reader.element(Field.self), b = try reader.element(Field.self)
                let c = try reader.element(Field.self), d = try reader.element(Field.self)
                p0.append((a, b))
                p2.append((c, d))
            }
            layers.append(LayerProof(p0: p0, p2: p2, leftValue: try reader.element(Field.self),
                                     rightValue: try reader.element(Field.self)))
        }
        self.layers = layers
        let required = parameters.requiredColumns
        lowDegreeResponse = try reader.elements(Field.self, count: parameters.block)
        dotResponse = try reader.elements(Field.self, count: parameters.doubleBlock)
        quadraticResponse0 = try reader.elements(Field.self, count: required)
        quadraticResponse2 = try reader.elements(Field.self, count: parameters.doubleBlock - parameters.block)
        var nonces: [[UInt8]] = []
        for _ in 0..<required { nonces.append(Array(try reader.take(32))) }
        self.nonces = nonces
        // Runs alternate full and short values, starting with full; only the first may be empty.
        let total = parameters.rows * required
        var columns: [Field] = []
        columns.reserveCapacity(total)
        var full = true
        var first = true
        while columns.count < total {
            let length = try reader.u32()
            guard length < 1 << 25, length <= total - columns.count, length > 0 || first else {
                throw ProofFormatError("a run of opened values has a length out of range")
            }
            let size = full ? Field.byteCount : Self.subfieldByteCount
            guard length <= reader.remaining / size else { throw ProofFormatError("the proof ends early") }
            for _ in 0..<length {
                columns.append(full ? try reader.element(Field.self) : try Self.subfieldElement(&reader))
            }
            full.toggle()
            first = false
        }
        self.columns = columns
        let digestCount = try reader.u32()
        guard digestCount >= required, digestCount <= required * parameters.pathLength, digestCount < 1 << 25,
              digestCount <= reader.remaining / 32
        else { throw ProofFormatError("the Merkle proof's digest count is out of range") }
        var digests: [[UInt8]] = []
        digests.reserveCapacity(digestCount)
        for _ in 0..<digestCount { digests.append(Array(try reader.take(32))) }
        self.digests = digests
    }
}
