import Crypto
import CryptoExtras
import LongfellowAlgebra

/// The Fiat–Shamir transcript of a Longfellow proof, as both implementations run it (the draft's prose differs:
/// its record tags are off by one): every write is a tagged record hashed into one running SHA-256 (0x00 a byte
/// string with its u64 little-endian length, 0x01 one field element, 0x02 an array with its u64 length); the first
/// draw after a write keys AES-256 with the digest so far, and draws read the stream AES_k(0) ‖ AES_k(1) ‖ … (each
/// block input a u64 little-endian counter and 8 zero bytes), byte by byte, a partial block carrying over. Any write
/// ends the stream.
public struct FiatShamirTranscript {
    private var hash = SHA256()
    private var key: SymmetricKey?
    private var counter: UInt64 = 0
    private var block: [UInt8] = []
    private var position = 16

    /// A transcript started with `label` written as a byte string.
    public init(label: some Collection<UInt8>) {
        writeBytes(label)
    }

    private mutating func absorb(_ bytes: some Collection<UInt8>) {
        key = nil
        hash.update(data: Array(bytes))
    }

    private mutating func absorbTagAndLength(_ tag: UInt8, _ length: Int?) {
        var head: [UInt8] = [tag]
        if let length {
            let value = UInt64(length)
            for index in 0..<8 { head.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(index)))) }
        }
        absorb(head)
    }

    /// A byte string (tag 0x00).
    public mutating func writeBytes(_ bytes: some Collection<UInt8>) {
        absorbTagAndLength(0x00, bytes.count)
        absorb(bytes)
    }

    /// `count` zero bytes as one byte string (the statement's term count), hashed without building them at once.
    public mutating func writeZeros(count: Int) {
        absorbTagAndLength(0x00, count)
        let chunk = [UInt8](repeating: 0, count: 4096)
        var left = count
        while left > 0 {
            let size = min(left, chunk.count)
            absorb(chunk[..<size])
            left -= size
        }
    }

    /// One field element (tag 0x01).
    public mutating func write<Field: LongfellowField>(_ element: Field) {
        var bytes: [UInt8] = [0x01]
        element.append(to: &bytes)
        absorb(bytes)
    }

    /// An array of field elements (tag 0x02, then its count).
    public mutating func write<Field: LongfellowField>(_ elements: [Field]) {
        absorbTagAndLength(0x02, elements.count)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(elements.count * Field.byteCount)
        for element in elements { element.append(to: &bytes) }
        absorb(bytes)
    }

    /// The next `count` pseudo-random bytes.
    public mutating func drawBytes(_ count: Int) -> [UInt8] {
        if key == nil {
            key = SymmetricKey(data: Array(hash.finalize()))
            counter = 0
            position = 16
        }
        var out: [UInt8] = []
        out.reserveCapacity(count)
        while out.count < count {
            if position == 16 { refill() }
            let take = min(16 - position, count - out.count)
            out.append(contentsOf: block[position..<position + take])
            position += take
        }
        return out
    }

    private mutating func refill() {
        var input = [UInt8](repeating: 0, count: 16)
        for index in 0..<8 { input[index] = UInt8(truncatingIfNeeded: counter >> (8 * UInt64(index))) }
        counter += 1
        // AES-256 on one block: the key is 32 bytes and the input one block, so this cannot fail.
        try! AES.permute(&input, key: key!)
        block = input
        position = 0
    }

    /// A field element challenge.
    public mutating func draw<Field: LongfellowField>(_: Field.Type) -> Field {
        Field.sample { drawBytes($0) }
    }

    /// `count` field element challenges.
    public mutating func draw<Field: LongfellowField>(_: Field.Type, count: Int) -> [Field] {
        (0..<count).map { _ in draw(Field.self) }
    }

    /// A natural number below `bound` (> 0): the fewest bytes that hold `bound`, read little-endian, masked to its bit
    /// length, drawn again until below it.
    public mutating func drawNatural(below bound: Int) -> Int {
        precondition(bound > 0, "a natural below 0")
        let value = UInt64(bound)
        let byteLength = (64 - value.leadingZeroBitCount + 7) / 8
        let bits = 64 - value.leadingZeroBitCount
        let mask: UInt64 = bits == 64 ? .max : (1 << UInt64(bits)) - 1
        while true {
            let bytes = drawBytes(byteLength)
            var candidate: UInt64 = 0
            for (index, byte) in bytes.enumerated() { candidate |= UInt64(byte) << (8 * UInt64(index)) }
            candidate &= mask
            if candidate < value { return Int(candidate) }
        }
    }

    /// `count` distinct naturals below `bound`, in the order drawn (a partial Fisher–Yates shuffle of 0 ..< bound).
    public mutating func choose(_ count: Int, below bound: Int) -> [Int] {
        precondition(count <= bound, "more choices than candidates")
        var candidates = Array(0..<bound)
        var chosen: [Int] = []
        chosen.reserveCapacity(count)
        for index in 0..<count {
            let pick = index + drawNatural(below: bound - index)
            candidates.swapAt(index, pick)
            chosen.append(candidates[index])
        }
        return chosen
    }
}
