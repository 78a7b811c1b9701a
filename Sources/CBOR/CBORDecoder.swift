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
        try parser.readItem(depth: 0)
        let tree = CBORTree(input: bytes, nodes: parser.nodes, joined: parser.joined)
        return (CBORItem(tree: tree, index: 0), parser.position)
    }
}

/// The decoding state: a cursor over borrowed bytes, appending one node per data item.
private struct Parser {
    typealias Node = CBORTree.Node

    let input: ArraySlice<UInt8>
    let limits: CBORDecodingLimits
    var position: Int
    var itemCount = 0
    var nodes: [Node] = []
    var joined: [UInt8] = []

    init(input: ArraySlice<UInt8>, limits: CBORDecodingLimits) {
        self.input = input
        self.limits = limits
        self.position = input.startIndex
        // Most items take several bytes; the array grows as items actually decode, never by a declared count.
        nodes.reserveCapacity(min(max(input.count / 6, 4), 1024))
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

    /// Appends a node for an item that starts at `start`; containers are finished by ``finish(_:)``.
    mutating func append(_ kind: Node.Kind, _ argument: UInt64, from start: Int, contentStart: Int = 0,
                         isJoined: Bool = false) -> Int {
        nodes.append(Node(kind: kind, isJoined: isJoined, argument: argument, start: start, end: position,
                          contentStart: contentStart, next: nodes.count + 1))
        return nodes.count - 1
    }

    /// Closes a container node once its children are read: its bytes end here, its subtree ends at the last node.
    mutating func finish(_ index: Int) {
        nodes[index].end = position
        nodes[index].next = nodes.count
    }

    mutating func readItem(depth: Int) throws(CBORDecodingError) {
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
            _ = append(.unsigned, argument, from: start)
        case 1:
            _ = append(.negative, argument, from: start)
        case 2:
            let contentStart = try skipStringBytes(length: argument)
            _ = append(.bytes, argument, from: start, contentStart: contentStart)
        case 3:
            let contentStart = try skipStringBytes(length: argument)
            try validateUTF8(input[contentStart..<position])
            _ = append(.text, argument, from: start, contentStart: contentStart)
        case 4:
            guard argument <= UInt64(remaining) else {
                throw CBORDecodingError(.lengthExceedsInput(declared: argument), at: start)
            }
            try enter(depth: depth + 1, at: start)
            let index = append(.array, argument, from: start)
            for _ in 0..<argument {
                try readItem(depth: depth + 1)
            }
            finish(index)
        case 5:
            guard argument <= UInt64(remaining / 2) else {
                throw CBORDecodingError(.lengthExceedsInput(declared: argument), at: start)
            }
            try enter(depth: depth + 1, at: start)
            let index = append(.map, argument, from: start)
            for _ in 0..<argument {
                try readItem(depth: depth + 1)
                try readItem(depth: depth + 1)
            }
            finish(index)
            try checkUniqueKeys(ofMapAt: index)
        default:  // 6: tag
            try enter(depth: depth + 1, at: start)
            let index = append(.tagged, argument, from: start)
            try readItem(depth: depth + 1)
            finish(index)
        }
    }

    func enter(depth: Int, at offset: Int) throws(CBORDecodingError) {
        if depth > limits.maxDepth {
            throw CBORDecodingError(.nestingTooDeep(limit: limits.maxDepth), at: offset)
        }
    }

    /// Moves past a string's content after checking it fits; returns where the content starts.
    mutating func skipStringBytes(length: UInt64) throws(CBORDecodingError) -> Int {
        guard length <= UInt64(remaining) else {
            throw CBORDecodingError(.lengthExceedsInput(declared: length), at: position)
        }
        let contentStart = position
        position += Int(length)
        return contentStart
    }

    func validateUTF8(_ bytes: ArraySlice<UInt8>) throws(CBORDecodingError) {
        if Self.isASCII(bytes) { return }  // ASCII is valid UTF-8
        guard String(validating: bytes, as: UTF8.self) != nil else {
            throw CBORDecodingError(.invalidUTF8, at: bytes.startIndex)
        }
    }

    /// Whether every byte is below 0x80, eight bytes at a time.
    static func isASCII(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var index = 0
            var high: UInt64 = 0
            while index + 8 <= buffer.count {
                high |= buffer.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                index += 8
            }
            while index < buffer.count {
                high |= UInt64(buffer[index])
                index += 1
            }
            return high & 0x8080_8080_8080_8080 == 0
        }
    }

    mutating func readSimpleOrFloat(_ ai: UInt8, start: Int) throws(CBORDecodingError) {
        switch ai {
        case 20: _ = append(.bool, 0, from: start)
        case 21: _ = append(.bool, 1, from: start)
        case 22: _ = append(.null, 0, from: start)
        case 23: _ = append(.undefined, 0, from: start)
        case 0...19: _ = append(.simple, UInt64(ai), from: start)
        case 24:
            let value = UInt8(try readUInt(byteCount: 1))
            guard value >= 32 else { throw CBORDecodingError(.invalidSimpleValue(value), at: start) }
            _ = append(.simple, UInt64(value), from: start)
        case 25:
            let bits = UInt16(try readUInt(byteCount: 2))
            _ = append(.float, HalfFloat.double(fromBits: bits).bitPattern, from: start)
        case 26:
            let bits = UInt32(try readUInt(byteCount: 4))
            _ = append(.float, Double(Float(bitPattern: bits)).bitPattern, from: start)
        case 27:
            let bits = try readUInt(byteCount: 8)
            _ = append(.float, bits, from: start)
        default:
            throw CBORDecodingError(.reservedAdditionalInfo(ai), at: start)
        }
    }

    mutating func readIndefinite(major: UInt8, start: Int, depth: Int) throws(CBORDecodingError) {
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
            let contentStart = joined.count
            while true {
                let chunkStart = position
                let head = try readByte()
                if head == 0xff { break }
                try countItem(at: chunkStart)
                guard head >> 5 == major, head & 0x1f != 31 else {
                    throw CBORDecodingError(.invalidStringChunk, at: chunkStart)
                }
                let length = try readArgument(head & 0x1f, headAt: chunkStart)
                let chunkContent = try skipStringBytes(length: length)
                if major == 3 { try validateUTF8(input[chunkContent..<position]) }
                joined.append(contentsOf: input[chunkContent..<position])
            }
            let length = UInt64(joined.count - contentStart)
            if major == 3 { try validateUTF8(joined[contentStart...]) }
            _ = append(major == 2 ? .bytes : .text, length, from: start, contentStart: contentStart, isJoined: true)
        case 4:
            try enter(depth: depth + 1, at: start)
            let index = append(.array, 0, from: start)
            var count: UInt64 = 0
            while try !consumeBreak() {
                try readItem(depth: depth + 1)
                count += 1
            }
            nodes[index].argument = count
            finish(index)
        default:  // 5
            try enter(depth: depth + 1, at: start)
            let index = append(.map, 0, from: start)
            var count: UInt64 = 0
            while try !consumeBreak() {
                try readItem(depth: depth + 1)
                try readItem(depth: depth + 1)
                count += 1
            }
            nodes[index].argument = count
            finish(index)
            try checkUniqueKeys(ofMapAt: index)
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

    func encoded(_ index: Int) -> ArraySlice<UInt8> { input[nodes[index].start..<nodes[index].end] }

    /// The nodes decoded so far as a tree, to compare finished items by value.
    func provisionalTree() -> CBORTree { CBORTree(input: input, nodes: nodes, joined: joined) }

    func checkUniqueKeys(ofMapAt index: Int) throws(CBORDecodingError) {
        let count = Int(nodes[index].argument)
        guard count > 1 else { return }
        let duplicate = withUnsafeTemporaryAllocation(of: Int.self, capacity: count) { keys -> Int? in
            var key = index + 1
            for k in 0..<count {
                keys[k] = key
                key = nodes[nodes[key].next].next  // past the key's value
            }
            let keys = UnsafeBufferPointer(keys)
            return count <= 32 ? pairwiseDuplicate(keys) : hashedDuplicate(keys)
        }
        if let duplicate { throw CBORDecodingError(.duplicateMapKey, at: nodes[duplicate].start) }
    }

    /// Few keys: each against those before it. Keys in preferred definite form (nearly every real key) are equal
    /// exactly when their bytes are equal; only other keys of the same major type need a comparison of values.
    func pairwiseDuplicate(_ keys: UnsafeBufferPointer<Int>) -> Int? {
        input.withUnsafeBufferPointer { buffer in
            func bytes(_ node: Int) -> UnsafeBufferPointer<UInt8> {
                UnsafeBufferPointer(rebasing: buffer[(nodes[node].start - input.startIndex)..<(nodes[node].end - input.startIndex)])
            }
            for i in 1..<keys.count {
                let a = bytes(keys[i])
                for j in 0..<i {
                    let b = bytes(keys[j])
                    guard a[0] >> 5 == b[0] >> 5 else { continue }
                    let same = Self.isPreferredScalar(a) && Self.isPreferredScalar(b)
                        ? a.elementsEqual(b) : sameValue(keys[i], keys[j])
                    if same { return keys[i] }
                }
            }
            return nil
        }
    }

    /// Whether two finished items are the same data item (values, not bytes).
    func sameValue(_ a: Int, _ b: Int) -> Bool {
        let tree = provisionalTree()
        return CBORItem(tree: tree, index: a).isSameDataItem(as: CBORItem(tree: tree, index: b))
    }

    /// Many keys: a set of their bytes when every key is in preferred form, else a set of their values.
    func hashedDuplicate(_ keys: UnsafeBufferPointer<Int>) -> Int? {
        if keys.allSatisfy({ Self.isPreferredScalar(encoded($0)) }) {
            var seen = Set<ArraySlice<UInt8>>(minimumCapacity: keys.count)
            return keys.first { !seen.insert(encoded($0)).inserted }
        }
        let tree = provisionalTree()
        var seen = Set<CBOR>(minimumCapacity: keys.count)
        return keys.first { !seen.insert(CBORItem(tree: tree, index: $0).value).inserted }
    }

    /// An integer, byte string or text string whose head is in preferred (shortest, definite) form.
    static func isPreferredScalar<Bytes: RandomAccessCollection<UInt8>>(_ encoded: Bytes) -> Bool
        where Bytes.Index == Int
    {
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
