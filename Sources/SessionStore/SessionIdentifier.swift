import Encodings

/// Session identifiers: 32 random bytes from the system generator, base64url without padding (43 characters).
/// An identifier is a bearer secret for one verification, so it is never guessable and never reused.
public enum SessionIdentifier {
    public static let byteCount = 32
    public static let textLength = 43

    public static func make() -> String {
        let bytes = RandomBytes.make(byteCount)
        return Base64URL.encode(bytes)
    }

    /// Whether `text` has the shape of an identifier we issue (checked before any lookup).
    public static func isWellFormed(_ text: String) -> Bool {
        text.utf8.count == textLength && text.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || byte == 0x2D || byte == 0x5F
        }
    }
}
