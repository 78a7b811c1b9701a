import LongfellowAlgebra

/// One of a Longfellow mdoc circuit's two halves, as read from its LFC1 form: a layered arithmetic circuit over
/// `Field` whose layer 0 is the output layer, each layer a list of quads `v·w[h0]·w[h1]` summed into wire `g`.
public struct LayeredCircuit<Field: LongfellowField>: Sendable {
    /// One term: output wire `g` (of the layer above) gets `constants[constantIndex] · in[h0] · in[h1]`.
    public struct Quad: Sendable, Equatable {
        public let g: UInt32
        public let h0: UInt32
        public let h1: UInt32
        public let constantIndex: UInt32
    }

    public struct Layer: Sendable {
        /// log2 of the padded input width.
        public let logWidth: Int
        /// Input wires of this layer (the outputs of the next one).
        public let width: Int
        /// The layer's quads, kept compact (as google/longfellow-zk keeps them): each quad is an index into
        /// `steps`, the distinct (Δg, Δh0, Δh1, constant) steps from the quad before (the first from 0, 0, 0), so a
        /// layer of millions of quads costs 4 bytes each plus a table of some tens of thousands of steps.
        let stepIndexes: [UInt32]
        let steps: [QuadStep]

        public var quadCount: Int { stepIndexes.count }

        /// The quads in order, decoded (for tests and the portable path).
        public var quads: [Quad] {
            var g: Int32 = 0, h0: Int32 = 0, h1: Int32 = 0
            return stepIndexes.map { index in
                let step = steps[Int(index)]
                g &+= step.dg
                h0 &+= step.dh0
                h1 &+= step.dh1
                return Quad(g: UInt32(g), h0: UInt32(h0), h1: UInt32(h1), constantIndex: step.constant)
            }
        }
    }

    /// Output wires.
    public let outputCount: Int
    /// Copies (always 1 here).
    public let copyCount: Int
    public let publicInputCount: Int
    public let subfieldBoundary: Int
    public let inputCount: Int
    public let constants: [Field]
    public let layers: [Layer]
    /// The id the file states, and the one computed from the content (equal, or the file is refused).
    public let id: [UInt8]

    public var quadCount: Int { layers.reduce(0) { $0 + $1.quadCount } }

    /// Bytes the layers' quads hold in memory.
    public var quadBytes: Int {
        layers.reduce(0) { $0 + $1.stepIndexes.count * 4 + $1.steps.count * MemoryLayout<QuadStep>.stride }
    }
}

/// One step between consecutive quads of a layer: the signed changes of g, h0 and h1, and the quad's constant
/// (the layout of `vd_quad_step`).
struct QuadStep: Hashable, Sendable {
    let dg: Int32
    let dh0: Int32
    let dh1: Int32
    let constant: UInt32
}
