import Testing
@testable import CBOR

struct StrictnessAndLimitsTests {
    private func reason(_ bytes: [UInt8], limits: CBORDecodingLimits = .default) -> CBORDecodingError? {
        do {
            _ = try CBORDecoder(limits: limits).decode(bytes)
            return nil
        } catch {
            return error
        }
    }

    @Test func trailingBytesAreRejectedWithTheirOffset() {
        #expect(reason([0x01, 0x02]) == CBORDecodingError(.trailingBytes(count: 1), at: 1))
    }

    @Test func truncationCarriesTheOffset() {
        #expect(reason([0x19, 0x01]) == CBORDecodingError(.truncated, at: 1))
        #expect(reason([0x82, 0x01, 0x62, 0x61]) == CBORDecodingError(.lengthExceedsInput(declared: 2), at: 3))
    }

    @Test func invalidUTF8IsRejected() {
        #expect(reason([0x62, 0xc3, 0x28]) == CBORDecodingError(.invalidUTF8, at: 1))
        // A chunk of an indefinite text string must be valid UTF-8 on its own.
        #expect(reason([0x7f, 0x61, 0xc3, 0x61, 0xbc, 0xff])?.reason == .invalidUTF8)
    }

    @Test func oneNonASCIIByteAnywhereInALongTextIsValidated() {
        // ASCII is accepted eight bytes at a time; a byte of 0x80 or more at any offset (inside a word or in the
        // tail) must still send the text through full UTF-8 validation.
        for length in [1, 7, 8, 9, 16, 23] {
            let text = [UInt8](repeating: UInt8(ascii: "a"), count: length)
            #expect(reason([0x60 | UInt8(length)] + text) == nil)
            for position in 0..<length {
                for bad: UInt8 in [0x80, 0xbf, 0xc3, 0xff] {
                    var bytes = text
                    bytes[position] = bad
                    #expect(reason([0x60 | UInt8(length)] + bytes)?.reason == .invalidUTF8, "\(length) \(position) \(bad)")
                }
                // A valid two-byte sequence in the same place is accepted.
                if position + 1 < length {
                    var bytes = text
                    bytes[position] = 0xc3
                    bytes[position + 1] = 0xa9
                    #expect(reason([0x60 | UInt8(length)] + bytes) == nil, "\(length) \(position) é")
                }
            }
        }
    }

    @Test func duplicateMapKeysAreRejected() {
        #expect(reason([0xa2, 0x01, 0x00, 0x01, 0x00]) == CBORDecodingError(.duplicateMapKey, at: 3))
        #expect(reason([0xa2, 0x61, 0x61, 0x00, 0x61, 0x61, 0x01])?.reason == .duplicateMapKey)
        // The same value with a longer head is still the same key.
        #expect(reason([0xa2, 0x01, 0x00, 0x18, 0x01, 0x00])?.reason == .duplicateMapKey)
        // Different types are different keys.
        #expect(reason([0xa2, 0x01, 0x00, 0x61, 0x31, 0x00]) == nil)
    }

    @Test func duplicateKeysInLargeMapsAreRejected() {
        var bytes: [UInt8] = [0xb8, 40]
        for i in 0..<39 { bytes += [0x18, UInt8(30 + i), 0x00] }
        bytes += [0x18, 30, 0x00]
        #expect(reason(bytes)?.reason == .duplicateMapKey)
    }

    @Test func deepNestingFailsFastWithoutOverflowingTheStack() {
        let bytes = [UInt8](repeating: 0x81, count: 100_000) + [0x00]
        #expect(reason(bytes)?.reason == .nestingTooDeep(limit: 64))
        let tags = [UInt8](repeating: 0xc1, count: 100_000) + [0x00]
        #expect(reason(tags)?.reason == .nestingTooDeep(limit: 64))
        let indefinite = [UInt8](repeating: 0x9f, count: 100_000)
        #expect(reason(indefinite)?.reason == .nestingTooDeep(limit: 64))
    }

    @Test func nestingUpToTheLimitIsAccepted() throws {
        let bytes = [UInt8](repeating: 0x81, count: 64) + [0x00]
        #expect(reason(bytes) == nil)
    }

    @Test func hugeDeclaredLengthsFailBeforeAllocating() {
        let byteString: [UInt8] = [0x5b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]
        #expect(reason(byteString) == CBORDecodingError(.lengthExceedsInput(declared: UInt64.max), at: 9))
        let array: [UInt8] = [0x9b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00]
        #expect(reason(array)?.reason == .lengthExceedsInput(declared: UInt64.max))
        let map: [UInt8] = [0xbb, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00]
        #expect(reason(map)?.reason == .lengthExceedsInput(declared: UInt64(Int64.max)))
        // An array claiming 3 elements with 2 bytes left cannot be complete.
        #expect(reason([0x83, 0x00, 0x00])?.reason == .lengthExceedsInput(declared: 3))
    }

    @Test func itemCountIsLimited() {
        var limits = CBORDecodingLimits()
        limits.maxItems = 10
        let bytes: [UInt8] = [0x8a] + [UInt8](repeating: 0, count: 10)
        #expect(reason(bytes, limits: limits)?.reason == .tooManyItems(limit: 10))
        let fits: [UInt8] = [0x89] + [UInt8](repeating: 0, count: 9)
        #expect(reason(fits, limits: limits) == nil)
    }

    @Test func inputSizeIsLimited() {
        var limits = CBORDecodingLimits()
        limits.maxInputBytes = 4
        #expect(reason([0x45, 1, 2, 3, 4, 5], limits: limits)?.reason == .inputTooLarge(limit: 4))
    }

    @Test func indefiniteLengthCanBeForbidden() {
        var limits = CBORDecodingLimits()
        limits.allowIndefiniteLength = false
        #expect(reason([0x9f, 0xff], limits: limits)?.reason == .indefiniteLengthNotAllowed)
    }

    @Test func negativeExtremeDoesNotOverflow() throws {
        let item = try CBORDecoder().decode([0x3b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff])
        #expect(item.value == .negative(UInt64.max))
        #expect(item.intValue == nil)
        let min = try CBORDecoder().decode([0x3b, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff])
        #expect(min.intValue == Int64.min)
    }

    @Test func embeddedItemsPointIntoTheOuterInput() throws {
        // 24(h'820102') inside an array: the embedded array's offsets are in the outer input.
        let bytes: [UInt8] = [0x81, 0xd8, 0x18, 0x43, 0x82, 0x01, 0x02]
        let outer = try CBORDecoder().decode(bytes)
        let tagged = try #require(outer.arrayValue?.first)
        #expect(Array(tagged.encoded) == Array(bytes[1...]))
        let inner = try #require(tagged.tagged?.item.bytesValue)
        let embedded = try CBORDecoder().decode(inner)
        #expect(embedded.offset == 4)
        #expect(embedded.value == [1, 2])
    }

    @Test func deterministicModeSortsMapKeysBytewise() {
        let value: CBOR = .map([.init("bb", 1), .init(10, 2), .init("a", 3), .init(-1, 4), .init(100, 5)])
        let encoded = CBOREncoder(mode: .deterministic).encode(value)
        // 10 (0a) < 100 (1864) < -1 (20) < "a" (6161) < "bb" (626262)
        #expect(encoded == [0xa5, 0x0a, 0x02, 0x18, 0x64, 0x05, 0x20, 0x04, 0x61, 0x61, 0x03, 0x62, 0x62, 0x62, 0x01])
    }

    @Test func encodedValuesAreWrittenVerbatim() {
        let value: CBOR = ["x", .encoded([0x83, 0xf6, 0xf6, 0x80])]
        #expect(CBOREncoder().encode(value) == [0x82, 0x61, 0x78, 0x83, 0xf6, 0xf6, 0x80])
    }

    @Test func errorsDescribeThemselves() {
        #expect(CBORDecodingError(.truncated, at: 7).description == "input ends inside an item at offset 7")
    }
}

#if canImport(Glibc)
import Glibc

/// Declared counts never turn into memory: the decoder grows containers as items decode.
@Suite(.serialized)
struct DeclaredCountMemoryTests {
    /// The process's current virtual size, from /proc/self/status.
    static func virtualMemoryBytes() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("VmSize:") {
            return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }.map { $0 * 1024 }
        }
        return nil
    }

    /// 60 nested arrays each declaring 524,288 items (about 560 KB of input) once raised the peak virtual memory by
    /// 1.1 GB. Under an address-space limit of 256 MiB above the current size, the decode must fail cleanly.
    @Test func declaredCountsDoNotReserveMemory() throws {
        var bytes: [UInt8] = []
        for _ in 0..<60 { bytes += [0x9a, 0x00, 0x08, 0x00, 0x00] }
        bytes += [UInt8](repeating: 0x00, count: 560_000)
        let current = try #require(Self.virtualMemoryBytes())
        var saved = rlimit()
        getrlimit(Int32(RLIMIT_AS.rawValue), &saved)
        var limited = saved
        limited.rlim_cur = rlim_t(current + 256 << 20)
        setrlimit(Int32(RLIMIT_AS.rawValue), &limited)
        defer { setrlimit(Int32(RLIMIT_AS.rawValue), &saved) }
        let limits = CBORDecodingLimits(maxDepth: 64, maxItems: 1_000_000, maxInputBytes: 1 << 20)
        #expect(throws: CBORDecodingError.self) { _ = try CBORDecoder(limits: limits).decode(bytes) }
    }
}
#endif
