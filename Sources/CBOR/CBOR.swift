/// A CBOR data item (RFC 8949) as a value: what we build and encode.
///
/// Decoding produces ``CBORItem`` instead, which also keeps the exact bytes each item came from.
public enum CBOR: Hashable, Sendable {
    /// Major type 0: an unsigned integer.
    case unsigned(UInt64)
    /// Major type 1: the integer `-1 - n`, so the full range down to -2^64 fits without overflow.
    case negative(UInt64)
    /// Major type 2.
    case bytes([UInt8])
    /// Major type 3.
    case text(String)
    /// Major type 4.
    case array([CBOR])
    /// Major type 5, entries in the order given (the deterministic encoder sorts them).
    case map([Pair])
    /// Major type 6.
    indirect case tagged(UInt64, CBOR)
    /// Major type 7 simple values other than false, true, null and undefined.
    case simple(UInt8)
    case bool(Bool)
    case null
    case undefined
    /// Major type 7 floating point; encoded in the shortest form that keeps the value.
    case float(Double)
    /// An already encoded, well-formed data item written verbatim (e.g. a received SessionTranscript).
    case encoded([UInt8])

    /// A map entry.
    public struct Pair: Hashable, Sendable {
        public var key: CBOR
        public var value: CBOR
        public init(_ key: CBOR, _ value: CBOR) {
            self.key = key
            self.value = value
        }
    }

    /// An integer of either sign.
    public static func int(_ value: Int64) -> CBOR {
        value >= 0 ? .unsigned(UInt64(value)) : .negative(UInt64(-(value + 1)))
    }

    /// Tag 24: the encoding of `item` embedded as a byte string.
    public static func embedded(_ item: CBOR) -> CBOR {
        .tagged(CBORTag.encodedCBOR, .bytes(CBOREncoder().encode(item)))
    }
}

extension CBOR: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .text(value) }
    public init(integerLiteral value: Int64) { self = .int(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: CBOR...) { self = .array(elements) }
    public init(nilLiteral: ()) { self = .null }
}

/// Tag numbers this project uses.
public enum CBORTag {
    /// Standard date/time string (RFC 8949 section 3.4.1), ISO 18013-5 `tdate`.
    public static let dateTimeString: UInt64 = 0
    /// Embedded CBOR data item (`bstr .cbor`), ISO 18013-5 `#6.24`.
    public static let encodedCBOR: UInt64 = 24
    /// RFC 8943 full-date string, ISO 18013-5 `full-date`.
    public static let fullDateString: UInt64 = 1004
    /// COSE_Mac0 and COSE_Sign1 (RFC 9052).
    public static let coseMac0: UInt64 = 17
    public static let coseSign1: UInt64 = 18
}
