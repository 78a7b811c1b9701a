import LongfellowAlgebra

/// A Longfellow mdoc proof's bytes: six MAC tags (GF(2^128)) binding the two circuits' shared secrets, the hash
/// circuit's proof, the signature circuit's proof, and nothing after (google/longfellow-zk lib/circuits/mdoc/mdoc_zk.cc).
public struct MdocProof: Sendable {
    /// The smallest proof either implementation writes.
    public static let minimumByteCount = 20_000

    public let macs: [GF2_128]
    public let hash: CircuitProof<GF2_128>
    public let signature: CircuitProof<Fp256>

    /// Reads `bytes` for `circuit` under `spec`; refuses anything short, long or out of range.
    public init(_ bytes: [UInt8], circuit: CircuitFile, spec: LongfellowSystemSpec) throws(ProofFormatError) {
        guard bytes.count >= Self.minimumByteCount else { throw ProofFormatError("the proof is shorter than any proof") }
        guard let hashParameters = Self.parameters(circuit.hash, encodedBlock: spec.blockEncodedHash, spec: spec),
              let signatureParameters = Self.parameters(circuit.signature, encodedBlock: spec.blockEncodedSignature, spec: spec)
        else { throw ProofFormatError("the system's parameters describe no commitment for this circuit") }
        var reader = ProofReader(bytes)
        macs = try reader.elements(GF2_128.self, count: 6)
        hash = try CircuitProof(reading: &reader, logWidths: circuit.hash.layers.map(\.logWidth), parameters: hashParameters)
        signature = try CircuitProof(reading: &reader, logWidths: circuit.signature.layers.map(\.logWidth),
                                     parameters: signatureParameters)
        guard reader.remaining == 0 else { throw ProofFormatError("\(reader.remaining) bytes follow the proof") }
    }

    /// The Ligero parameters of one circuit under a system.
    public static func parameters<Field>(_ circuit: LayeredCircuit<Field>, encodedBlock: Int, spec: LongfellowSystemSpec)
        -> LigeroParameters?
    {
        LigeroParameters(witnessCount: LigeroParameters.witnessCount(privateInputs: circuit.inputCount - circuit.publicInputCount,
                                                                     logWidths: circuit.layers.map(\.logWidth)),
                         layerCount: circuit.layers.count, encodedBlock: encodedBlock, rate: spec.rate,
                         requiredColumns: spec.requiredColumns)
    }
}
