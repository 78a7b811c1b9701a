/// Validation rules for the `sub` claim (`MobileDocumentReader.configuration.readerInstanceIdentifier`).
public enum ReaderInstanceIdentifier {
    /// Maximum accepted length in characters.
    public static let maximumLength = 256

    /// Checks that `value` is 1...256 printable ASCII characters (0x20...0x7E).
    /// - Throws: ``ReaderTokenError/invalidReaderInstanceIdentifier(reason:)`` (code
    ///   `INVALID_READER_INSTANCE_IDENTIFIER`); the reason never echoes the value.
    public static func validate(_ value: String) throws(ReaderTokenError) {
        let bytes = value.utf8
        if bytes.isEmpty {
            throw .invalidReaderInstanceIdentifier(reason: "must not be empty")
        }
        if let index = bytes.firstIndex(where: { !(0x20...0x7E).contains($0) }) {
            let offset = bytes.distance(from: bytes.startIndex, to: index)
            throw .invalidReaderInstanceIdentifier(
                reason: "must be printable ASCII (0x20...0x7E); invalid byte at offset \(offset)")
        }
        if bytes.count > maximumLength {
            throw .invalidReaderInstanceIdentifier(
                reason: "must be at most \(maximumLength) characters, got \(bytes.count)")
        }
    }
}
