/// What the Longfellow verifier needs of a field: its elements' wire form (little-endian, canonical: a decoding that
/// is not an element is nil), arithmetic, and how a Fiat–Shamir challenge is drawn from pseudo-random bytes.
public protocol LongfellowField: Hashable, Sendable, CustomStringConvertible {
    /// Bytes of one element on the wire and in the transcript.
    static var byteCount: Int { get }
    static var zero: Self { get }
    static var one: Self { get }

    /// The element of exactly ``byteCount`` little-endian bytes; nil when they encode no element.
    init?(littleEndian bytes: some Collection<UInt8>)
    /// Appends the ``byteCount`` little-endian bytes.
    func append(to buffer: inout [UInt8])

    static func + (a: Self, b: Self) -> Self
    static func - (a: Self, b: Self) -> Self
    static func * (a: Self, b: Self) -> Self
    var inverse: Self { get }

    /// The sumcheck polynomials' third evaluation node (after 0 and 1): 2 in the P-256 field, the subfield
    /// generator g in GF(2^128).
    static var thirdNode: Self { get }
    /// The k-th Reed–Solomon evaluation point: k itself in the P-256 field; Σ bit_i(k)·g^i in GF(2^128).
    static func evaluationPoint(_ k: Int) -> Self

    /// A challenge: ``byteCount`` bytes at a time from `next`, read little-endian, until they encode an element
    /// (every 16 bytes do in GF(2^128); 32 bytes at or above p are drawn again in the P-256 field).
    static func sample(_ next: (Int) -> [UInt8]) -> Self
}

extension LongfellowField {
    public static func sample(_ next: (Int) -> [UInt8]) -> Self {
        while true {
            if let element = Self(littleEndian: next(byteCount)) { return element }
        }
    }
}

extension GF2_128: LongfellowField {
    public static var thirdNode: GF2_128 { subfieldGenerator }
    public static func evaluationPoint(_ k: Int) -> GF2_128 { GF2_128(subfield: UInt16(truncatingIfNeeded: k)) }
}

extension Fp256: LongfellowField {
    public static var thirdNode: Fp256 { Fp256(2) }
    public static func evaluationPoint(_ k: Int) -> Fp256 { Fp256(UInt64(k)) }
}
