import Encodings

/// Bytes from the hex the specification's vectors are written in (empty for text that is not hex).
enum HexBytes {
    static func bytes(_ hex: String) -> [UInt8] { [UInt8](hexString: hex) ?? [] }
}
