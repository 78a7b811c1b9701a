/// Why an input is not an acceptable CBOR data item, and where.
public struct CBORDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Reason: Sendable, Equatable {
        /// The input ended inside an item.
        case truncated
        /// Bytes remain after the single top-level item.
        case trailingBytes(count: Int)
        /// A text string is not valid UTF-8.
        case invalidUTF8
        /// Additional information 28, 29 or 30.
        case reservedAdditionalInfo(UInt8)
        /// Additional information 31 where the major type has no indefinite length (0, 1, 6, or as a simple value).
        case invalidIndefiniteLength(majorType: UInt8)
        /// A break (0xff) outside an indefinite-length item, or where a map value is expected.
        case unexpectedBreak
        /// A chunk of an indefinite-length string that is not a definite string of the same major type.
        case invalidStringChunk
        /// The same key twice in one map.
        case duplicateMapKey
        /// A two-byte simple value below 32.
        case invalidSimpleValue(UInt8)
        /// A declared length or count that cannot fit in the remaining input.
        case lengthExceedsInput(declared: UInt64)
        case nestingTooDeep(limit: Int)
        case tooManyItems(limit: Int)
        case inputTooLarge(limit: Int)
        /// Indefinite length where the limits forbid it.
        case indefiniteLengthNotAllowed
    }

    public let reason: Reason
    /// Offset in the input of the byte where the problem was found.
    public let offset: Int

    public init(_ reason: Reason, at offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    public var description: String {
        let what: String
        switch reason {
        case .truncated: what = "input ends inside an item"
        case .trailingBytes(let n): what = "\(n) trailing byte(s) after the item"
        case .invalidUTF8: what = "text string is not valid UTF-8"
        case .reservedAdditionalInfo(let ai): what = "reserved additional information \(ai)"
        case .invalidIndefiniteLength(let mt): what = "indefinite length is not allowed for major type \(mt)"
        case .unexpectedBreak: what = "unexpected break"
        case .invalidStringChunk: what = "indefinite-length string chunk of the wrong type"
        case .duplicateMapKey: what = "duplicate map key"
        case .invalidSimpleValue(let v): what = "two-byte simple value \(v) is not allowed"
        case .lengthExceedsInput(let n): what = "declared length \(n) exceeds the remaining input"
        case .nestingTooDeep(let limit): what = "nesting deeper than \(limit)"
        case .tooManyItems(let limit): what = "more than \(limit) items"
        case .inputTooLarge(let limit): what = "input larger than \(limit) bytes"
        case .indefiniteLengthNotAllowed: what = "indefinite length is not allowed here"
        }
        return "\(what) at offset \(offset)"
    }
}
