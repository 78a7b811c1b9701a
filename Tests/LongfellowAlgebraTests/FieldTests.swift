import Encodings
import Foundation
import Testing
import TestSupport
@testable import LongfellowAlgebra

/// Both fields against vectors computed with Python's integers (TestVectors/generator/longfellow_algebra.py), the
/// two GF(2^128) multiplication paths against each other, and canonical decoding.
struct FieldTests {
    struct Vectors: Decodable {
        struct FpPair: Decodable { let a, b, sum, difference, product, inverseOfA: String }
        struct GFPair: Decodable { let a, b, product, inverseOfA: String }
        struct Fp: Decodable { let modulus: String; let pairs: [FpPair]; let notCanonical: [String] }
        struct GF: Decodable { let pairs: [GFPair]; let subfieldGenerator: String }
        let fp256: Fp
        let gf2_128: GF
    }

    static let vectors: Vectors = {
        let url = Fixtures.testVectors.appendingPathComponent("longfellow/algebra.json")
        return try! JSONDecoder().decode(Vectors.self, from: Data(contentsOf: url))
    }()

    static func bytes(_ hex: String) -> [UInt8] { [UInt8](hexString: hex) ?? [] }

    @Test func theP256FieldComputesAsPythonsIntegers() throws {
        for pair in Self.vectors.fp256.pairs {
            let a = try #require(Fp256(littleEndian: Self.bytes(pair.a)))
            let b = try #require(Fp256(littleEndian: Self.bytes(pair.b)))
            #expect((a + b).littleEndianBytes == Self.bytes(pair.sum))
            #expect((a - b).littleEndianBytes == Self.bytes(pair.difference))
            #expect((a * b).littleEndianBytes == Self.bytes(pair.product))
            #expect(a.inverse.littleEndianBytes == Self.bytes(pair.inverseOfA))
            #expect(a.littleEndianBytes == Self.bytes(pair.a), "a round trip of the wire form")
            if !a.isZero { #expect(a * a.inverse == .one) }
        }
        #expect(Fp256(7) + Fp256(8) == Fp256(15) && Fp256(3) * Fp256(5) == Fp256(15) && -Fp256(1) + Fp256(1) == .zero)
    }

    @Test func theP256FieldRefusesWhatIsNotCanonical() {
        for hex in Self.vectors.fp256.notCanonical {
            #expect(Fp256(littleEndian: Self.bytes(hex)) == nil, "\(hex)")
        }
        #expect(Fp256(littleEndian: [UInt8](repeating: 0, count: 31)) == nil)
        #expect(Fp256(littleEndian: [UInt8](repeating: 0, count: 33)) == nil)
    }

    @Test func gf2_128ComputesAsPythonsPolynomials() throws {
        for pair in Self.vectors.gf2_128.pairs {
            let a = try #require(GF2_128(littleEndian: Self.bytes(pair.a)))
            let b = try #require(GF2_128(littleEndian: Self.bytes(pair.b)))
            #expect(GF2_128Multiplier.portable.multiply(a, b).littleEndianBytes == Self.bytes(pair.product), "portable \(pair.a)")
            if GF2_128Multiplier.hardwareAvailable {
                #expect(GF2_128Multiplier.hardware.multiply(a, b).littleEndianBytes == Self.bytes(pair.product), "hardware \(pair.a)")
            }
            #expect(a.inverse.littleEndianBytes == Self.bytes(pair.inverseOfA))
            #expect((a + b) + b == a)
        }
        #expect(GF2_128(littleEndian: [UInt8](repeating: 0, count: 15)) == nil)
    }

    /// The portable path is what a CPU without carry-less multiplication runs: it must agree with the hardware path
    /// everywhere, so both are compared on many random pairs (a seeded generator: the same pairs every run).
    @Test func bothMultiplicationPathsAgree() {
        var generator = SeededGenerator(seed: 0x6C66_6D75_6C74)
        var checked = 0
        for _ in 0..<20_000 {
            let a = GF2_128(low: generator.next(), high: generator.next())
            let b = GF2_128(low: generator.next(), high: generator.next())
            let portable = GF2_128Multiplier.portable.multiply(a, b)
            if GF2_128Multiplier.hardwareAvailable {
                #expect(portable == GF2_128Multiplier.hardware.multiply(a, b))
            }
            #expect(portable == GF2_128Multiplier.portable.multiply(b, a))
            checked += 1
        }
        #expect(checked == 20_000)
    }

    /// The subfield GF(2^16) the Reed–Solomon points and the short wire form live in.
    @Test func theSubfieldGeneratorHasOrder65535() throws {
        let generator = try #require(GF2_128(littleEndian: Self.bytes(Self.vectors.gf2_128.subfieldGenerator)))
        var power = GF2_128.one
        var order = 0
        repeat {
            power *= generator
            order += 1
        } while power != .one && order < 70_000
        #expect(order == 65_535)
    }
}

extension FieldTests {
    /// The C Montgomery multiplication the field uses against the Swift one, on random values below p and at the
    /// edges (0, 1, p − 1).
    @Test func bothMontgomeryMultiplicationsAgree() {
        var generator = SeededGenerator(seed: 0x6670_3235_36)
        var values: [Fp256] = [.zero, .one, .zero - .one, Fp256(2)]
        for _ in 0..<2_000 {
            if let value = Fp256(canonicalLimbs: (generator.next(), generator.next(), generator.next(), generator.next() >> 1)) {
                values.append(value)
            }
        }
        for (a, b) in zip(values, values.reversed()) {
            let c = Fp256.montgomeryMultiply(a.limbs, b.limbs), swift = Fp256.montgomeryMultiplySwift(a.limbs, b.limbs)
            #expect(c == swift)
        }
    }

    /// The C dot product of the Reed–Solomon rows against the sum of Swift products.
    @Test func theP256DotProductIsTheSumOfProducts() {
        var generator = SeededGenerator(seed: 0x646F_7470)
        var values: [Fp256] = [.zero - .one, .zero - .one, .one]
        while values.count < 515 {
            if let value = Fp256(canonicalLimbs: (generator.next(), generator.next(), generator.next(), generator.next() >> 1)) {
                values.append(value)
            }
        }
        let a = Array(values[0..<257]), b = Array(values[257..<514])
        for count in [0, 1, 2, 100, 257] {
            var expected = Fp256.zero
            for i in 0..<count { expected = expected + a[i] * b[i] }
            let dot = a.withUnsafeBufferPointer { x in b.withUnsafeBufferPointer { y in Fp256.dot(x, y, count: count) } }
            #expect(dot == expected, "\(count) pairs")
        }
    }
}
