/// The shape of one circuit's Ligero commitment, derived from the witness size, the layer count and the system's
/// codeword length, inverse rate and opened columns (google/longfellow-zk lib/ligero/ligero_param.h): rows of
/// `block` values (`requiredColumns` of them random), extended to `encodedBlock` evaluations of which the last
/// `extendedBlock` are the Merkle leaves.
public struct LigeroParameters: Sendable, Equatable {
    public let requiredColumns: Int
    public let block: Int
    /// Witness values per row.
    public let width: Int
    public let doubleBlock: Int
    /// Merkle leaves (opened columns are chosen among them).
    public let extendedBlock: Int
    public let witnessRows: Int
    public let quadraticTriples: Int
    /// Witness and quadratic rows.
    public let committedRows: Int
    /// Every row: three blinding rows first.
    public let rows: Int
    public let pathLength: Int

    /// Nil when the parameters describe no commitment (a row too narrow for its random columns, a codeword too short).
    public init?(witnessCount: Int, layerCount: Int, encodedBlock: Int, rate: Int, requiredColumns: Int) {
        guard witnessCount >= 1, layerCount >= 1, rate >= 1, requiredColumns >= 1, encodedBlock >= 1 else { return nil }
        block = (encodedBlock + 1) / (2 + rate)
        width = block - requiredColumns
        doubleBlock = 2 * block - 1
        extendedBlock = encodedBlock - doubleBlock
        guard width >= requiredColumns, extendedBlock >= requiredColumns else { return nil }
        self.requiredColumns = requiredColumns
        witnessRows = (witnessCount + width - 1) / width
        quadraticTriples = (layerCount + width - 1) / width
        committedRows = witnessRows + 3 * quadraticTriples
        rows = committedRows + 3
        pathLength = MerkleMultiproof.pathLength(leafCount: extendedBlock)
    }

    /// The witness count of a circuit: its private inputs and, per layer, the sumcheck pads (two per round and hand,
    /// and three for the layer's claim).
    public static func witnessCount(privateInputs: Int, logWidths: [Int]) -> Int {
        privateInputs + logWidths.reduce(0) { $0 + 4 * $1 + 3 }
    }
}
