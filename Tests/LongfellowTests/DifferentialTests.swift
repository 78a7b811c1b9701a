import Foundation
import LongfellowAlgebra
import Testing
import TestSupport
@testable import Longfellow

/// Differential: proofs made in the test by PyPI pylongfellow's two provers (Google's C++, ISRG's Rust) for mdocs
/// under the TEST-ONLY document signer (TestVectors/generator/zk_proofs.py: mDL and `eu.europa.ec.av.1`, v6 and v7,
/// one and two attributes, and statements changed after proving), each judged by verifierd exactly as by both of
/// pylongfellow's verifiers.
@Suite(.serialized)
struct DifferentialTests {
    struct Cases: Decodable {
        struct Attribute: Decodable { let id: String; let value: String }
        struct Case: Decodable {
            let name: String
            let circuit: String
            let proof: String
            let docType: String
            let attributes: [Attribute]
            let timestamp: String
            let transcript: String
            let issuerKeyX: String
            let issuerKeyY: String
            let verdicts: [String: Bool]
        }
        let cases: [Case]
    }

    @Test func verifierdJudgesEveryProofAsBothReferenceVerifiers() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("verifierd-zk-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try ProcessRunner.run(["python3", "TestVectors/generator/zk_proofs.py", "--out", folder.path])
        try #require(run.status == 0, "\(run.output)\n\(run.error)")
        let cases = try JSONDecoder().decode(Cases.self, from: Data(contentsOf: folder.appendingPathComponent("cases.json"))).cases
        #expect(cases.count >= 8)
        var verifiedCount = 0, refusedCount = 0
        for entry in cases {
            let reference = Set(entry.verdicts.values)
            #expect(reference.count == 1, "\(entry.name): the reference verifiers disagree \(entry.verdicts)")
            let circuit = try MdocProofTests.circuits.circuit(entry.circuit)
            let spec = try #require(LongfellowSystemSpec.published(circuitHash: circuit.circuitHashHex))
            func key(_ hex: String) throws -> Fp256 { try #require(Fp256(littleEndian: HexBytes.bytes(hex).reversed())) }
            let statement = MdocZKStatement(issuerKeyX: try key(entry.issuerKeyX), issuerKeyY: try key(entry.issuerKeyY),
                                            sessionTranscript: HexBytes.bytes(entry.transcript), docType: entry.docType,
                                            attributes: entry.attributes.map { .init(identifier: $0.id, value: HexBytes.bytes($0.value)) },
                                            timestamp: entry.timestamp)
            let proof = [UInt8](try Data(contentsOf: folder.appendingPathComponent(entry.proof)))
            var verified = true
            do throws(MdocZKVerifier.Failure) {
                try MdocZKVerifier.verify(proof, statement: statement, circuit: circuit, spec: spec)
            } catch {
                verified = false
            }
            #expect(verified == reference.first, "\(entry.name): verifierd \(verified), pylongfellow \(entry.verdicts)")
            if verified { verifiedCount += 1 } else { refusedCount += 1 }
        }
        #expect(verifiedCount >= 4 && refusedCount >= 4, "\(verifiedCount) verified, \(refusedCount) refused")
    }
}
