import Encodings

extension Substring {
    /// The UTF-8 of this substring in place (no copy when its string is native UTF-8, as received text is).
    func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        var copy = self
        return try copy.withUTF8(body)
    }

    /// Unpadded base64url of this substring, decoded in place (``Base64URL`` rules: one spelling per byte string).
    var base64URLDecoded: [UInt8]? {
        withBytes { Base64URL.decodeBytes(utf8: $0) }
    }

    /// The substrings between `separator` bytes (empty ones kept), split on the bytes: the separators are ASCII, so
    /// every boundary is a character boundary.
    func splitBytes(_ separator: UInt8) -> [Substring] {
        let offsets: [Int] = withBytes { buffer in
            var found: [Int] = []
            for (offset, byte) in buffer.enumerated() where byte == separator { found.append(offset) }
            return found
        }
        var parts: [Substring] = []
        parts.reserveCapacity(offsets.count + 1)
        var start = utf8.startIndex
        for offset in offsets {
            let end = utf8.index(utf8.startIndex, offsetBy: offset)
            parts.append(self[start..<end])
            start = utf8.index(after: end)
        }
        parts.append(self[start...])
        return parts
    }
}
