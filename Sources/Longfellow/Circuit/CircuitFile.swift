import Crypto
import Foundation
import LongfellowAlgebra

/// A Longfellow mdoc circuit file: zstd around two LFC1 circuits, the signature circuit over the P-256 base field
/// (field id 1) then the hash circuit over GF(2^128) (field id 4), and nothing after. Identified by its content: each
/// half's id is SHA-256 over its parsed structure (never the file's bytes or name), checked against the id the
/// file states, and the circuit hash is SHA-256(signature id ‖ hash id), the `circuit_hash` of a ZkSystemSpec.
public struct CircuitFile: Sendable {
    /// Decompressed bytes a file may declare (the largest shipped circuit is 114.6 MB).
    public static let maximumContentSize = 130_000_000

    public let signature: LayeredCircuit<Fp256>
    public let hash: LayeredCircuit<GF2_128>
    /// SHA-256(signature id ‖ hash id).
    public let circuitHash: [UInt8]

    /// Reads `compressed`; throws, saying why, for anything that is not exactly such a file.
    public init(compressed: [UInt8]) throws(CircuitFileError) {
        try self.init(reader: try ZstdFrameReader(compressed, maximumContentSize: Self.maximumContentSize))
    }

    /// The two LFC1 circuits without zstd around them (for the parser's fuzz harness and tests).
    init(uncompressed: [UInt8]) throws(CircuitFileError) {
        guard uncompressed.count <= Self.maximumContentSize else { throw CircuitFileError("too large") }
        try self.init(reader: ZstdFrameReader(uncompressed: uncompressed))
    }

    private init(reader: ZstdFrameReader) throws(CircuitFileError) {
        signature = try CircuitParser<Fp256>(reader: reader, fieldId: 1, fieldTag: Self.fpTag).parse()
        hash = try CircuitParser<GF2_128>(reader: reader, fieldId: 4, fieldTag: Self.gfTag).parse()
        guard try reader.atEnd() else { throw CircuitFileError("bytes follow the hash circuit") }
        circuitHash = Array(SHA256.hash(data: signature.id + hash.id))
    }

    /// The circuit hash as lowercase hex, as a ZkSystemSpec names it.
    public var circuitHashHex: String { circuitHash.map { String(format: "%02x", $0) }.joined() }

    /// The field's part of a circuit id: u64le(1) ‖ p − 1 (32 bytes little-endian) for the P-256 field.
    static let fpTag: [UInt8] = {
        var bytes = CircuitParser<Fp256>.u64(1)
        (Fp256.zero - Fp256.one).append(to: &bytes)
        return bytes
    }()

    /// u64le(2) ‖ u64le(128) for GF(2^128).
    static let gfTag: [UInt8] = CircuitParser<GF2_128>.u64(2) + CircuitParser<GF2_128>.u64(128)
}

/// The LFC1 reader for one circuit over `Field`, hashing its id as it reads.
struct CircuitParser<Field: LongfellowField> {
    let reader: ZstdFrameReader
    let fieldId: Int
    let fieldTag: [UInt8]

    static func u64(_ value: Int) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: UInt64(value) >> (8 * UInt64($0))) }
    }

    @inline(__always)
    static func appendU64(_ value: Int, to buffer: inout [UInt8]) {
        let value = UInt64(value)
        for index in 0..<8 { buffer.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(index)))) }
    }

    /// ceil(log2 n), 0 for n ≤ 1.
    static func lg(_ n: Int) -> Int {
        var n = n, l = 0
        while n > 1 {
            n = (n + 1) / 2
            l += 1
        }
        return l
    }

    func parse() throws(CircuitFileError) -> LayeredCircuit<Field> {
        guard try reader.byte() == 1 else { throw CircuitFileError("not an LFC1 circuit (version byte)") }
        let field = try reader.number()
        guard field == fieldId else { throw CircuitFileError("field id \(field) where \(fieldId) was expected") }
        let outputs = try reader.number(), copies = try reader.number(), publicInputs = try reader.number()
        let subfieldBoundary = try reader.number(), inputs = try reader.number()
        let layerCount = try reader.number(), constantCount = try reader.number()
        guard copies == 1 else { throw CircuitFileError("\(copies) copies; the verifier takes 1") }
        guard outputs >= 1, publicInputs >= 1, publicInputs <= inputs, subfieldBoundary <= inputs, layerCount >= 1,
              layerCount <= 64, constantCount >= 1
        else { throw CircuitFileError("the header's counts do not describe a circuit") }
        guard constantCount * Field.byteCount <= reader.remaining else {
            throw CircuitFileError("\(constantCount) constants do not fit in the file")
        }
        var constantBytes: [UInt8] = []
        constantBytes.reserveCapacity(constantCount * Field.byteCount)
        try reader.read(constantCount * Field.byteCount, into: &constantBytes)
        var constants: [Field] = []
        constants.reserveCapacity(constantCount)
        for index in 0..<constantCount {
            let start = index * Field.byteCount
            guard let constant = Field(littleEndian: constantBytes[start..<start + Field.byteCount]) else {
                throw CircuitFileError("constant \(index) is not a field element")
            }
            constants.append(constant)
        }
        var hasher = SHA256()
        hasher.update(data: fieldTag)
        for value in [outputs, Self.lg(outputs), copies, Self.lg(copies), layerCount, inputs, publicInputs, subfieldBoundary] {
            hasher.update(data: Self.u64(value))
        }
        var layers: [LayeredCircuit<Field>.Layer] = []
        var above = outputs
        var record: [UInt8] = []
        record.reserveCapacity(1 << 16)
        for index in 0..<layerCount {
            let logWidth = try reader.number(), width = try reader.number(), quadCount = try reader.number()
            guard (1...40).contains(logWidth), width >= 1, width <= 1 << logWidth, quadCount >= 1 else {
                throw CircuitFileError("layer \(index): widths \(logWidth)/\(width) or \(quadCount) quads are not a layer")
            }
            guard quadCount * 12 <= reader.remaining else {
                throw CircuitFileError("layer \(index): \(quadCount) quads do not fit in the file")
            }
            hasher.update(data: Self.u64(width) + Self.u64(logWidth) + Self.u64(quadCount))
            var stepIndexes: [UInt32] = []
            stepIndexes.reserveCapacity(quadCount)
            var steps: [QuadStep] = []
            var stepIndex: [QuadStep: UInt32] = [:]
            var g = 0, h0 = 0, h1 = 0
            for _ in 0..<quadCount {
                let (previousG, previousH0, previousH1) = (g, h0, h1)
                g = try Self.delta(g, try reader.number())
                h0 = try Self.delta(h0, try reader.number())
                h1 = try Self.delta(h1, try reader.number())
                let constant = try reader.number()
                guard g < above, h0 < width, h1 < width, constant < constantCount else {
                    throw CircuitFileError("layer \(index): a quad's wire or constant is out of range")
                }
                // Wires are below 2^24 (3-byte numbers), so every step fits an Int32.
                let step = QuadStep(dg: Int32(g - previousG), dh0: Int32(h0 - previousH0), dh1: Int32(h1 - previousH1),
                                    constant: UInt32(constant))
                if let known = stepIndex[step] {
                    stepIndexes.append(known)
                } else {
                    stepIndex[step] = UInt32(steps.count)
                    stepIndexes.append(UInt32(steps.count))
                    steps.append(step)
                }
                Self.appendU64(g, to: &record)
                Self.appendU64(h0, to: &record)
                Self.appendU64(h1, to: &record)
                let start = constant * Field.byteCount
                record.append(contentsOf: constantBytes[start..<start + Field.byteCount])
                if record.count >= 60_000 {
                    hasher.update(data: record)
                    record.removeAll(keepingCapacity: true)
                }
            }
            hasher.update(data: record)
            record.removeAll(keepingCapacity: true)
            layers.append(.init(logWidth: logWidth, width: width, stepIndexes: stepIndexes, steps: steps))
            above = width
        }
        guard above == inputs else { throw CircuitFileError("the last layer's width \(above) is not the \(inputs) inputs") }
        var stated: [UInt8] = []
        try reader.read(32, into: &stated)
        let computed = Array(hasher.finalize())
        guard stated == computed else { throw CircuitFileError("the circuit's stated id is not the id of its content") }
        return LayeredCircuit(outputCount: outputs, copyCount: copies, publicInputCount: publicInputs,
                              subfieldBoundary: subfieldBoundary, inputCount: inputs, constants: constants, layers: layers,
                              id: computed)
    }

    /// A delta-coded index: odd deltas step back, even ones forward; a step below 0 is refused.
    static func delta(_ previous: Int, _ coded: Int) throws(CircuitFileError) -> Int {
        let value = coded & 1 == 1 ? previous - (coded >> 1) : previous + (coded >> 1)
        guard value >= 0 else { throw CircuitFileError("a quad's delta steps below wire 0") }
        return value
    }
}
