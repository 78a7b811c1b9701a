import Foundation
import Testing
import TestSupport
import LongfellowAlgebra
@testable import Longfellow

/// The transcript against the Fiat–Shamir vectors of the Longfellow specification (TestVectors/longfellow/
/// fiat-shamir.json, transcribed from google/longfellow-zk docs/specs/testvectors.md): byte strings, one element, an
/// array, naturals and choices, each continuing the state of the one before, over the P-256 field.
struct FiatShamirTranscriptTests {
    struct Vectors: Decodable {
        struct Naturals: Decodable { let bounds: [Int]; let results: [Int] }
        struct Choice: Decodable { let bound: Int; let count: Int; let chosen: [Int] }
        struct Step: Decodable {
            let write: String
            let bytes: String?
            let element: UInt64?
            let elements: [UInt64]?
            let draw: [String]?
            let naturals: Naturals?
            let choices: [Choice]?
        }
        let label: String
        let steps: [Step]
    }

    /// A big-endian hex integer below p.
    static func element(_ hex: String) -> Fp256? {
        let padded = String(repeating: "0", count: max(0, 64 - hex.count)) + hex
        return Fp256(littleEndian: HexBytes.bytes(padded).reversed())
    }

    @Test func theSpecificationsVectors() throws {
        let url = Fixtures.testVectors.appendingPathComponent("longfellow/fiat-shamir.json")
        let vectors = try JSONDecoder().decode(Vectors.self, from: Data(contentsOf: url))
        var transcript = FiatShamirTranscript(label: Array(vectors.label.utf8))
        #expect(vectors.steps.count == 5)
        for (index, step) in vectors.steps.enumerated() {
            switch step.write {
            case "bytes": transcript.writeBytes(HexBytes.bytes(try #require(step.bytes)))
            case "element": transcript.write(Fp256(try #require(step.element)))
            case "array": transcript.write(try #require(step.elements).map { Fp256($0) })
            default: Issue.record("unknown write \(step.write)")
            }
            if let draw = step.draw {
                let expected = try draw.map { try #require(Self.element($0)) }
                #expect(transcript.draw(Fp256.self, count: expected.count) == expected, "step \(index + 1)")
            }
            if let naturals = step.naturals {
                #expect(naturals.bounds.map { transcript.drawNatural(below: $0) } == naturals.results, "step \(index + 1)")
            }
            for choice in step.choices ?? [] {
                #expect(transcript.choose(choice.count, below: choice.bound) == choice.chosen, "choose \(choice.count) of \(choice.bound)")
            }
        }
    }

    /// A write ends the stream: the same draws after another write differ, and the same writes draw the same.
    @Test func aWriteStartsANewStream() {
        var first = FiatShamirTranscript(label: Array("x".utf8))
        var second = FiatShamirTranscript(label: Array("x".utf8))
        #expect(first.drawBytes(40) == second.drawBytes(40))
        let before = first.drawBytes(16)
        second.writeZeros(count: 0)
        #expect(second.drawBytes(16) != before)
        // writeZeros(n) is writeBytes of n zero bytes, in chunks or not.
        var zeros = FiatShamirTranscript(label: [])
        var bytes = FiatShamirTranscript(label: [])
        zeros.writeZeros(count: 10_000)
        bytes.writeBytes([UInt8](repeating: 0, count: 10_000))
        #expect(zeros.draw(GF2_128.self) == bytes.draw(GF2_128.self))
    }
}
