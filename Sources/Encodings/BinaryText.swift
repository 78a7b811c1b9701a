/// Bytes written as text, read the same way on every input that takes them (HTTP fields, CLI options): `hex:` or
/// `base64:` says which; without a prefix, hex when the text is only hex digits of a length `unprefixedHex`
/// accepts, else base64 (standard or URL-safe, padding optional).
public enum BinaryText {
    /// Why text is not bytes; `reason` completes a sentence that starts with the input's name.
    public enum Failure: Error, Equatable {
        case notHexAfterPrefix
        case notBase64AfterPrefix
        case neither

        public var reason: String {
            switch self {
            case .notHexAfterPrefix: "is not hex after \"hex:\""
            case .notBase64AfterPrefix: "is not base64 after \"base64:\""
            case .neither: "is neither hex nor base64 (prefix it with hex: or base64: to say which)"
            }
        }
    }

    public static func decode(_ text: String, unprefixedHex: (Int) -> Bool) throws(Failure) -> [UInt8] {
        if text.hasPrefix("hex:") {
            guard let bytes = [UInt8](hexString: String(text.dropFirst(4))) else { throw .notHexAfterPrefix }
            return bytes
        }
        if text.hasPrefix("base64:") {
            guard let bytes = Base64Input.decode(String(text.dropFirst(7))) else { throw .notBase64AfterPrefix }
            return bytes
        }
        if unprefixedHex(text.utf8.count), let bytes = [UInt8](hexString: text) { return bytes }
        guard let bytes = Base64Input.decode(text) else { throw .neither }
        return bytes
    }
}
