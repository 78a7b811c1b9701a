import Foundation

/// Base64url (RFC 4648 §5) without padding, as used by JWS compact serialization and by the Digital Credentials
/// API's `org-iso-mdoc` strings.
public enum Base64URL {
    /// Encodes `bytes` as unpadded base64url.
    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        var out: [UInt8] = []
        Base64Output.append(bytes, urlSafe: true, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes unpadded base64url; returns `nil` for padding, invalid characters, a bad length or non-zero unused
    /// bits in the last character (so every byte string has exactly one accepted spelling).
    public static func decode(_ text: String) -> Data? {
        decodeBytes(text).map { Data($0) }
    }

    /// As ``decodeBytes(_:)``, from UTF-8 bytes in place.
    public static func decodeBytes(utf8 input: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        Base64Input.decode(input, table: Base64Input.urlAlphabet)
    }

    /// As ``decode(_:)``, into an array (one pass with a lookup table).
    public static func decodeBytes(_ text: String) -> [UInt8]? {
        var text = text
        return text.withUTF8 { Base64Input.decode($0, table: Base64Input.urlAlphabet) }
    }
}
