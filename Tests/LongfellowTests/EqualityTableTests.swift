import Testing
import TestSupport
@testable import Longfellow
@testable import LongfellowAlgebra

/// The equality tables the sumcheck binds with: the C passes (GF(2^128) on the carry-less path, the P-256 base field
/// in Montgomery limbs) against the Swift passes, and both against eq's definition on a small table.
struct EqualityTableTests {
    static func definition<Field: LongfellowField>(_ point: [Field], _ index: Int) -> Field {
        var product = Field.one
        for (k, x) in point.enumerated() { product = product * ((index >> k) & 1 == 1 ? x : Field.one - x) }
        return product
    }

    @Test func theCPassesMatchTheSwiftOnesAndTheDefinition() throws {
        var generator = SeededGenerator(seed: 0x6571_7462)
        for variables in [0, 1, 5, 11] {
            let gf = (0..<variables).map { _ in GF2_128(low: generator.next(), high: generator.next()) }
            let fp = try (0..<variables).map { _ in
                try #require(Fp256(littleEndian: (0..<32).map { index in index == 31 ? 0 : UInt8.random(in: 0...255, using: &generator) }))
            }
            for count in [1 << variables, max(1, (1 << variables) - 3)] {
                let gfTable = EqualityTable.make(gf[...], count: count)
                #expect(gfTable == EqualityTable.makePortable(gf[...], count: count), "GF, \(variables) variables")
                let fpTable = EqualityTable.make(fp[...], count: count)
                #expect(fpTable == EqualityTable.makePortable(fp[...], count: count), "Fp, \(variables) variables")
                #expect(gfTable.count == count && fpTable.count == count)
                if variables <= 5 {
                    #expect(gfTable == (0..<count).map { Self.definition(gf, $0) })
                    #expect(fpTable == (0..<count).map { Self.definition(fp, $0) })
                }
            }
        }
    }
}
