import CZlib
import Testing
@testable import StatusList

/// Status lists are zlib-compressed; a few bytes can declare gigabytes, so inflation has a hard cap.
struct ZlibInflateTests {
    static func compress(_ input: [UInt8]) -> [UInt8] {
        var length = compressBound(uLong(input.count))
        var output = [UInt8](repeating: 0, count: Int(length))
        let status = compress2(&output, &length, input, uLong(input.count), 9)
        precondition(status == Z_OK)
        return Array(output.prefix(Int(length)))
    }

    @Test func roundTrips() throws {
        let input = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        #expect(try ZlibInflate.inflate(Self.compress(input), maximumBytes: 10_000) == input)
    }

    @Test func aBombStopsAtTheCap() {
        let bomb = Self.compress([UInt8](repeating: 0, count: 32 << 20))
        #expect(bomb.count < 64 << 10)
        #expect(throws: ZlibInflate.Failure.tooLarge(limit: 1 << 20)) { try ZlibInflate.inflate(bomb, maximumBytes: 1 << 20) }
    }

    @Test func corruptAndTruncatedStreamsFail() {
        var compressed = Self.compress(Array("status".utf8))
        #expect(throws: ZlibInflate.Failure.self) { try ZlibInflate.inflate(Array(compressed.dropLast(3)), maximumBytes: 100) }
        compressed[2] ^= 0xff
        #expect(throws: ZlibInflate.Failure.self) { try ZlibInflate.inflate(compressed, maximumBytes: 100) }
        #expect(throws: ZlibInflate.Failure.self) { try ZlibInflate.inflate(Self.compress([1]) + [0], maximumBytes: 100) }
    }
}
