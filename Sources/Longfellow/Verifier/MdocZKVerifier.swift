import LongfellowAlgebra

/// Checks a Longfellow mdoc proof (both circuits, one transcript) against its statement, as google/longfellow-zk's
/// `run_mdoc_verifier` does: the transcript starts with the SessionTranscript, takes both commitments, draws the MAC
/// key that links the circuits, then verifies the hash circuit and the signature circuit in turn.
public enum MdocZKVerifier {
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The statement cannot be stated for this system (a reason given).
        case statement(String)
        /// The proof's bytes are not a proof for this circuit.
        case format(String)
        /// The hash circuit's proof does not verify (the check named).
        case hashCircuit(String)
        /// The signature circuit's proof does not verify (the check named).
        case signatureCircuit(String)

        public var description: String {
            switch self {
            case .statement(let reason): return "statement: \(reason)"
            case .format(let reason): return "proof: \(reason)"
            case .hashCircuit(let reason): return "hash circuit: \(reason)"
            case .signatureCircuit(let reason): return "signature circuit: \(reason)"
            }
        }
    }

    public static func verify(_ proofBytes: [UInt8], statement: MdocZKStatement, circuit: CircuitFile,
                              spec: LongfellowSystemSpec) throws(Failure) {
        guard circuit.circuitHashHex == spec.circuitHash else { throw .statement("the circuit is not the system's") }
        guard statement.attributes.count == spec.attributeCount else {
            throw .statement("\(statement.attributes.count) attributes for a system that proves \(spec.attributeCount)")
        }
        if let problem = statement.attributeProblem(version: spec.version) { throw .statement(problem) }
        guard statement.timestamp.utf8.count == 20, statement.timestamp.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else {
            throw .statement("the time is not 20 characters YYYY-MM-DDTHH:MM:SSZ")
        }
        guard let digest = statement.deviceAuthenticationDigest() else {
            throw .statement("the DeviceAuthentication digest cannot be stated (docType, size, or not below p)")
        }
        let proof: MdocProof
        do throws(ProofFormatError) {
            proof = try MdocProof(proofBytes, circuit: circuit, spec: spec)
        } catch {
            throw .format(error.reason)
        }
        guard let hashParameters = MdocProof.parameters(circuit.hash, encodedBlock: spec.blockEncodedHash, spec: spec),
              let signatureParameters = MdocProof.parameters(circuit.signature, encodedBlock: spec.blockEncodedSignature, spec: spec)
        else { throw .format("no commitment parameters") }
        var transcript = FiatShamirTranscript(label: statement.sessionTranscript)
        transcript.writeBytes(proof.hash.root)
        transcript.writeBytes(proof.signature.root)
        let macKey = GF2_128(littleEndian: transcript.drawBytes(16))!
        let hashInputs = statement.hashInputs(version: spec.version, macs: proof.macs, macKey: macKey)
        let signatureInputs = statement.signatureInputs(digest: digest, macs: proof.macs, macKey: macKey)
        guard hashInputs.count == circuit.hash.publicInputCount, signatureInputs.count == circuit.signature.publicInputCount else {
            throw .statement("the statement does not have the circuit's public inputs")
        }
        SumcheckConstraints.absorbStatement(circuit.hash, publicInputs: hashInputs, into: &transcript)
        let hashSystem = SumcheckConstraints.build(circuit.hash, publicInputs: hashInputs, proof: proof.hash, transcript: &transcript)
        do throws(LigeroCheck.Failure) {
            try LigeroCheck.verify(proof.hash, parameters: hashParameters, system: hashSystem, transcript: &transcript)
        } catch {
            throw .hashCircuit(error.rawValue)
        }
        SumcheckConstraints.absorbStatement(circuit.signature, publicInputs: signatureInputs, into: &transcript)
        let signatureSystem = SumcheckConstraints.build(circuit.signature, publicInputs: signatureInputs, proof: proof.signature,
                                                        transcript: &transcript)
        do throws(LigeroCheck.Failure) {
            try LigeroCheck.verify(proof.signature, parameters: signatureParameters, system: signatureSystem, transcript: &transcript)
        } catch {
            throw .signatureCircuit(error.rawValue)
        }
    }
}
