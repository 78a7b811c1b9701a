/// The contents of a file that holds one 32-byte symmetric key (AES-256): base64 or hex text (surrounding whitespace
/// ignored), or the 32 raw bytes. What `store.sessionKeyFile` and `webhooks.outboxKeyFile` hold; make one with
/// `openssl rand -base64 32`.
public enum SymmetricKeyFile {
    /// The key's 32 bytes, or nil when `contents` holds none of the three forms.
    public static func keyBytes(_ contents: [UInt8]) -> [UInt8]? {
        var start = contents.startIndex, end = contents.endIndex
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        while start < end, isSpace(contents[start]) { start += 1 }
        while end > start, isSpace(contents[end - 1]) { end -= 1 }
        let text = String(decoding: contents[start..<end], as: UTF8.self)
        if text.utf8.count == 64, let hex = [UInt8](hexString: text), hex.count == 32 { return hex }
        if let decoded = Base64Input.decode(text), decoded.count == 32 { return decoded }
        if contents.count == 32 { return contents }
        return nil
    }
}
