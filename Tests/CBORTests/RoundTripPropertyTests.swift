import Testing
import TestSupport
@testable import CBOR

/// Random values survive encode -> decode, in both encoder modes.
struct RoundTripPropertyTests {
    static func randomValue(depth: Int, using rng: inout SeededGenerator) -> CBOR {
        let choice = Int.random(in: 0..<(depth > 3 ? 9 : 13), using: &rng)
        switch choice {
        case 0: return .unsigned(UInt64.random(in: 0...UInt64.max, using: &rng) >> UInt64.random(in: 0..<64, using: &rng))
        case 1: return .negative(UInt64.random(in: 0...UInt64.max, using: &rng) >> UInt64.random(in: 0..<64, using: &rng))
        case 2: return .bytes((0..<Int.random(in: 0..<40, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) })
        case 3:
            let scalars = (0..<Int.random(in: 0..<20, using: &rng)).compactMap { _ in
                Unicode.Scalar(UInt32.random(in: 0...0x2_ffff, using: &rng))
            }
            return .text(String(String.UnicodeScalarView(scalars)))
        case 4: return .bool(Bool.random(using: &rng))
        case 5: return [.null, .undefined, .simple(UInt8.random(in: 32...255, using: &rng)), .simple(7)][Int.random(in: 0..<4, using: &rng)]
        case 6: return .float(Double(bitPattern: UInt64.random(in: 0...UInt64.max, using: &rng)))
        case 7: return .float(Double(Float16Bits.random(using: &rng)))
        case 8: return .float(Double(Float(bitPattern: UInt32.random(in: 0...UInt32.max, using: &rng))))
        case 9, 10:
            return .array((0..<Int.random(in: 0..<6, using: &rng)).map { _ in randomValue(depth: depth + 1, using: &rng) })
        case 11:
            var pairs: [CBOR.Pair] = []
            var keys = Set<CBOR>()
            for _ in 0..<Int.random(in: 0..<6, using: &rng) {
                let key = randomValue(depth: depth + 2, using: &rng)
                if keys.insert(key).inserted { pairs.append(.init(key, randomValue(depth: depth + 1, using: &rng))) }
            }
            return .map(pairs)
        default:
            return .tagged(UInt64.random(in: 0...UInt64.max, using: &rng) >> 40, randomValue(depth: depth + 1, using: &rng))
        }
    }

    enum Float16Bits {
        /// A random finite value that is exactly representable in half precision.
        static func random(using rng: inout SeededGenerator) -> Float {
            let bits = UInt16.random(in: 0...UInt16.max, using: &rng) & 0xfbff  // keep exponent below 31
            return Float(HalfFloat.double(fromBits: bits))
        }
    }

    /// NaN never equals itself, and keys that are NaN cannot be compared: leave such values out.
    static func containsNaN(_ value: CBOR) -> Bool {
        switch value {
        case .float(let d): return d.isNaN
        case .array(let a): return a.contains(where: containsNaN)
        case .map(let m): return m.contains { containsNaN($0.key) || containsNaN($0.value) }
        case .tagged(_, let v): return containsNaN(v)
        default: return false
        }
    }

    @Test func randomValuesRoundTrip() throws {
        var rng = SeededGenerator(seed: 0x5eed)
        var checked = 0
        for _ in 0..<3000 {
            let value = Self.randomValue(depth: 0, using: &rng)
            if Self.containsNaN(value) { continue }
            let preferred = CBOREncoder().encode(value)
            let decoded = try CBORDecoder().decode(preferred)
            #expect(decoded.value == value)
            #expect(CBOREncoder().encode(decoded.value) == preferred)
            let deterministic = CBOREncoder(mode: .deterministic).encode(value)
            let again = try CBORDecoder().decode(deterministic)
            #expect(CBOREncoder(mode: .deterministic).encode(again.value) == deterministic)
            checked += 1
        }
        #expect(checked > 2500)
    }

    @Test func floatsUseTheShortestExactForm() {
        #expect(CBOREncoder().encode(.float(1.0)).count == 3)
        #expect(CBOREncoder().encode(.float(100000.0)).count == 5)
        #expect(CBOREncoder().encode(.float(1.1)).count == 9)
        #expect(CBOREncoder().encode(.float(5.960464477539063e-8)) == [0xf9, 0x00, 0x01])
        // Smallest half subnormal divided by two is not representable in half precision.
        #expect(CBOREncoder().encode(.float(2.9802322387695312e-8)).count == 5)
    }

    @Test func randomBytesNeverCrashTheDecoder() {
        var rng = SeededGenerator(seed: 42)
        for _ in 0..<20_000 {
            let bytes = (0..<Int.random(in: 0..<24, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            _ = try? CBORDecoder().decode(bytes)
        }
    }
}
