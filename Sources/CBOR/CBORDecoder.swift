/// A strict, bounded RFC 8949 decoder.
///
/// Strict by default: trailing bytes, truncation, invalid UTF-8, reserved additional information, misplaced breaks,
/// wrong indefinite-string chunks and duplicate map keys are errors. Every declared length is checked against the
/// remaining input before anything is allocated, and nesting depth, item count and input size are limited.
public struct CBORDecoder: Sendable {
    public var limits: CBORDecodingLimits

    public init(limits: CBORDecodingLimits = .default) {
        self.limits = limits
    }

    /// Decodes exactly one data item that spans the whole input.
    public func decode(_ bytes: [UInt8]) throws(CBORDecodingError) -> CBORItem {
        try decode(bytes[...])
    }

    /// Decodes exactly one data item that spans the whole slice. Offsets and `encoded` slices refer to the
    /// slice's base array, so items decoded from an embedded byte string point into the outer input.
    public func decode(_ bytes: ArraySlice<UInt8>) throws(CBORDecodingError) -> CBORItem {
        let (item, end) = try decodePrefix(bytes)
        if end != bytes.endIndex {
            throw CBORDecodingError(.trailingBytes(count: bytes.endIndex - end), at: end)
        }
        return item
    }

    /// Decodes the first data item of `bytes` and returns it with the index just past it.
    public func decodePrefix(_ bytes: ArraySlice<UInt8>) throws(CBORDecodingError) -> (CBORItem, Int) {
        guard bytes.count <= limits.maxInputBytes else {
            throw CBORDecodingError(.inputTooLarge(limit: limits.maxInputBytes), at: bytes.startIndex)
        }
        var parser = Parser(input: bytes, limits: limits)
        let item = try parser.readItem(depth: 0)
        return (item, parser.position)
    }
}

/// The decoding state: a cursor over borrowed bytes.
private struct Parser {
    /// The most elements reserved up front for an array or map, whatever count it declares: a declared count is
    /// only checked against the bytes left, and each element takes far more memory than one byte of input, so
    /// containers grow as their items actually decode.
    static let initialContainerCapacity: UInt64 = 16

    let input: ArraySlice<UInt8>
    let limits: CBORDecodingLimits
    var position: Int
    var itemCount = 0

    init(input: ArraySlice<UInt8>, limits: CBORDecodingLimits) {
        self.input = input
        self.limits = limits
        self.position = input.startIndex
    }

    var remaining: Int { input.endIndex - position }

    mutating func readByte() throws(CBORDecodingError) -> UInt8 {
        guard position < input.endIndex else { throw CBORDecodingError(.truncated, at: position) }
        defer { position += 1 }
        return input[position]
    }

    mutating func readUInt(byteCount: Int) throws(CBORDecodingError) -> UInt64 {
        guard remaining >= byteCount else { throw CBORDecodingError(.truncated, at: position) }
        var value: UInt64 = 0
        for i in 0..<byteCount {
            value = (value << 8) | UInt64(input[position + i])
        }
        position += byteCount
        return value
    }

    /// Reads the argument that follows an initial byte whose additional information is `ai` (0...27).
    mutating func readArgument(_ ai: UInt8, headAt start: Int) throws(CBORDecodingError) -> UInt64 {
        switch ai {
        case 0...23: return UInt64(ai)
        case 24: return try readUInt(byteCount: 1)
        case 25: return try readUInt(byteCount: 2)
        case 26: return try readUInt(byteCount: 4)
        case 27: return try readUInt(byteCount: 8)
        default: throw CBORDecodingError(.reservedAdditionalInfo(ai), at: start)
        }
    }

    mutating func countItem(at offset: Int) throws(CBORDecodingError) {
        itemCount += 1
        if itemCount > limits.maxItems {
            throw CBORDecodingError(.tooManyItems(limit: limits.maxItems), at: offset)
        }
    }

    func item(_ content: CBORItem.Content, from start: Int) -> CBORItem {
        CBORItem(content: content, encoded: input[start..<position])
    }

    mutating func readItem(depth: Int) throws(CBORDecodingError) -> CBORItem {
        let start = position
        try countItem(at: start)
        let initial = try readByte()
        let major = initial >> 5
        let ai = initial & 0x1f

        if ai == 31 {
            return try readIndefinite(major: major, start: start, depth: depth)
        }
        if major == 7 {
            return try readSimpleOrFloat(ai, start: start)
        }
        let argument = try readArgument(ai, headAt: start)
        switch major {
        case 0:
            return item(.unsigned(argument), from: start)
        case 1:
            return item(.negative(argument), from: start)
        case 2:
            let bytes = try readStringBytes(length: argument)
            return item(.bytes(bytes), from: start)
        case 3:
            let bytes = try readStringBytes(length: argument)
            return item(.text(try utf8String(bytes)), from: start)
        case 4:
            guard argument <= UInt64(remaining) else {
                throw CBORDecodingError(.lengthExceedsInput(declared: argument), at: start)
            }
            try enter(depth: depth + 1, at: start)
            var elements: [CBORItem] = []
            elements.reserveCapacity(Int(min(argument, Self.initialContainerCapacity)))
            for _ in 0..<argument {
                elements.append(try readItem(depth: depth + 1))
            }
            return item(.array(elements), from: start)
        case 5:
            guard argument <= UInt64(remaining / 2) else {
                throw CBORDecodingError(.lengthExceedsInput(declared: argument), at: start)
            }
            try enter(depth: depth + 1, at: start)
            var pairs: [CBORItem.Pair] = []
            pairs.reserveCapacity(Int(min(argument, Self.initialContainerCapacity)))
            for _ in 0..<argument {
                let key = try readItem(depth: depth + 1)
                let value = try readItem(depth: depth + 1)
                pairs.append(CBORItem.Pair(key: key, value: value))
            }
            try checkUniqueKeys(pairs)
            return item(.map(pairs), from: start)
        default:  // 6: tag
            try enter(depth: depth + 1, at: start)
            let content = try readItem(depth: depth + 1)
            return item(.tagged(argument, content), from: start)
        }
    }

    func enter(depth: Int, at offset: Int) throws(CBORDecodingError) {
        if depth > limits.maxDepth {
            throw CBORDecodingError(.nestingTooDeep(limit: limits.maxDepth), at: offset)
        }
    }

    mutating func readStringBytes(length: UInt64) throws(CBORDecodingError) -> ArraySlice<UInt8> {
        guard length <= UInt64(remaining) else {
            throw CBORDecodingError(.lengthExceedsInput(declared: length), at: position)
        }
        let end = position + Int(length)
        defer { position = end }
        return input[position..<end]
    }

    func utf8String(_ bytes: ArraySlice<UInt8>) throws(CBORDecodingError) -> String {
        if bytes.allSatisfy({ $0 < 0x80 }) { return String(decoding: bytes, as: UTF8.self) }  // ASCII is valid UTF-8
        guard let string = String(validating: bytes, as: UTF8.self) else {
            throw CBORDecodingError(.invalidUTF8, at: bytes.startIndex)
        }
        return string
    }

    mutating func readSimpleOrFloat(_ ai: UInt8, start: Int) throws(CBORDecodingError) -> CBORItem {
        switch ai {
        case 20: return item(.bool(false), from: start)
        case 21: return item(.bool(true), from: start)
        case 22: return item(.null, from: start)
        case 23: return item(.undefined, from: start)
        case 0...19: return item(.simple(ai), from: start)
        case 24:
            let value = UInt8(try readUInt(byteCount: 1))
            guard value >= 32 else { throw CBORDecodingError(.invalidSimpleValue(value), at: start) }
            return item(.simple(value), from: start)
        case 25:
            let bits = UInt16(try readUInt(byteCount: 2))
            return item(.float(HalfFloat.double(fromBits: bits)), from: start)
        case 26:
            let bits = UInt32(try readUInt(byteCount: 4))
            return item(.float(Double(Float(bitPattern: bits))), from: start)
        case 27:
            let bits = try readUInt(byteCount: 8)
            return item(.float(Double(bitPattern: bits)), from: start)
        default:
            throw CBORDecodingError(.reservedAdditionalInfo(ai), at: start)
        }
    }

    mutating func readIndefinite(major: UInt8, start: Int, depth: Int) throws(CBORDecodingError) -> CBORItem {
        switch major {
        case 0, 1, 6:
            throw CBORDecodingError(.invalidIndefiniteLength(majorType: major), at: start)
        case 7:
            throw CBORDecodingError(.unexpectedBreak, at: start)
        default:
            break
        }
        guard limits.allowIndefiniteLength else {
            throw CBORDecodingError(.indefiniteLengthNotAllowed, at: start)
        }
        switch major {
        case 2, 3:
            var joined: [UInt8] = []
            while true {
                let chunkStart = position
                let head = try readByte()
                if head == 0xff { break }
                try countItem(at: chunkStart)
                guard head >> 5 == major, head & 0x1f != 31 else {
                    throw CBORDecodingError(.invalidStringChunk, at: chunkStart)
                }
                let length = try readArgument(head & 0x1f, headAt: chunkStart)
                let chunk = try readStringBytes(length: length)
                if major == 3 { _ = try utf8String(chunk) }
                joined.append(contentsOf: chunk)
            }
            if major == 2 { return item(.bytes(joined[...]), from: start) }
            return item(.text(try utf8String(joined[...])), from: start)
        case 4:
            try enter(depth: depth + 1, at: start)
            var elements: [CBORItem] = []
            while try !consumeBreak() {
                elements.append(try readItem(depth: depth + 1))
            }
            return item(.array(elements), from: start)
        default:  // 5
            try enter(depth: depth + 1, at: start)
            var pairs: [CBORItem.Pair] = []
            while try !consumeBreak() {
                let key = try readItem(depth: depth + 1)
                let value = try readItem(depth: depth + 1)
                pairs.append(CBORItem.Pair(key: key, value: value))
            }
            try checkUniqueKeys(pairs)
            return item(.map(pairs), from: start)
        }
    }

    /// Consumes a break if one is next; fails on end of input.
    mutating func consumeBreak() throws(CBORDecodingError) -> Bool {
        guard position < input.endIndex else { throw CBORDecodingError(.truncated, at: position) }
        if input[position] == 0xff {
            position += 1
            return true
        }
        return false
    }

    func checkUniqueKeys(_ pairs: [CBORItem.Pair]) throws(CBORDecodingError) {
        guard pairs.count > 1 else { return }
        // Keys in preferred definite form (nearly every real key) are equal exactly when their bytes are equal;
        // only other keys of the same major type need a comparison of values.
        if pairs.count <= 32 {
            for i in 1..<pairs.count {
                let a = pairs[i].key.encoded
                for j in 0..<i {
                    let b = pairs[j].key.encoded
                    guard a.first.map({ $0 >> 5 }) == b.first.map({ $0 >> 5 }) else { continue }
                    let duplicate = Self.isPreferredScalar(a) && Self.isPreferredScalar(b)
                        ? a.elementsEqual(b) : pairs[i].key.isSameDataItem(as: pairs[j].key)
                    if duplicate { throw CBORDecodingError(.duplicateMapKey, at: pairs[i].key.offset) }
                }
            }
            return
        }
        if pairs.allSatisfy({ Self.isPreferredScalar($0.key.encoded) }) {
            var seen = Set<ArraySlice<UInt8>>(minimumCapacity: pairs.count)
            for pair in pairs where !seen.insert(pair.key.encoded).inserted {
                throw CBORDecodingError(.duplicateMapKey, at: pair.key.offset)
            }
            return
        }
        var seen = Set<CBOR>()
        seen.reserveCapacity(pairs.count)
        for pair in pairs {
            if !seen.insert(pair.key.value).inserted {
                throw CBORDecodingError(.duplicateMapKey, at: pair.key.offset)
            }
        }
    }

    /// An integer, byte string or text string whose head is in preferred (shortest, definite) form.
    static func isPreferredScalar(_ encoded: ArraySlice<UInt8>) -> Bool {
        guard let initial = encoded.first, initial >> 5 <= 3 else { return false }
        let start = encoded.startIndex
        switch initial & 0x1f {
        case 0..<24: return true
        case 24: return encoded.count > 1 && encoded[start + 1] >= 24
        case 25: return encoded.count > 2 && encoded[start + 1] != 0
        case 26: return encoded.count > 4 && (encoded[start + 1] | encoded[start + 2]) != 0
        case 27: return encoded.count > 8 && (encoded[start + 1] | encoded[start + 2] | encoded[start + 3] | encoded[start + 4]) != 0
        default: return false
        }
    }
}
