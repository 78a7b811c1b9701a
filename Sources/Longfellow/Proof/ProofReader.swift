import LongfellowAlgebra

/// A cursor over a proof's bytes: every read is bounded by what is left, and a short proof is refused.
struct ProofReader {
    let bytes: [UInt8]
    private(set) var position = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    var remaining: Int { bytes.count - position }

    mutating func take(_ count: Int) throws(ProofFormatError) -> ArraySlice<UInt8> {
        guard count >= 0, count <= remaining else { throw ProofFormatError("the proof ends early") }
        defer { position += count }
        return bytes[position..<position + count]
    }

    mutating func u32() throws(ProofFormatError) -> Int {
        let raw = try take(4)
        return raw.reversed().reduce(0) { $0 << 8 | Int($1) }
    }

    mutating func element<Field: LongfellowField>(_: Field.Type) throws(ProofFormatError) -> Field {
        guard let element = Field(littleEndian: try take(Field.byteCount)) else {
            throw ProofFormatError("a field element is not canonical")
        }
        return element
    }

    mutating func elements<Field: LongfellowField>(_: Field.Type, count: Int) throws(ProofFormatError) -> [Field] {
        guard count >= 0, count <= remaining / Field.byteCount else { throw ProofFormatError("the proof ends early") }
        var out: [Field] = []
        out.reserveCapacity(count)
        for _ in 0..<count { out.append(try element(Field.self)) }
        return out
    }
}

/// Why proof bytes were refused before any verification.
public struct ProofFormatError: Error, Sendable, Equatable, CustomStringConvertible {
    public let reason: String

    init(_ reason: String) {
        self.reason = reason
    }

    public var description: String { reason }
}
