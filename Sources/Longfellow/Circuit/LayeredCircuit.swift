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
        public let quads: [Quad]
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

    public var quadCount: Int { layers.reduce(0) { $0 + $1.quads.count } }
}
