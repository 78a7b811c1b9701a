import Foundation

/// Base64url (RFC 4648 §5) without padding, as used by JWS compact serialization and by the Digital Credentials
/// API's `org-iso-mdoc` strings.
public enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Encodes `bytes` as unpadded base64url.
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        let input = Array(bytes)
        var out = [UInt8]()
        out.reserveCapacity((input.count * 4 + 2) / 3)
        var i = 0
        while i + 3 <= input.count {
            let n = UInt32(input[i]) << 16 | UInt32(input[i + 1]) << 8 | UInt32(input[i + 2])
            out.append(alphabet[Int(n >> 18 & 63)])
            out.append(alphabet[Int(n >> 12 & 63)])
            out.append(alphabet[Int(n >> 6 & 63)])
            out.append(alphabet[Int(n & 63)])
            i += 3
        }
        switch input.count - i {
        case 1:
            let n = UInt32(input[i]) << 16
            out.append(alphabet[Int(n >> 18 & 63)])
            out.append(alphabet[Int(n >> 12 & 63)])
        case 2:
            let n = UInt32(input[i]) << 16 | UInt32(input[i + 1]) << 8
            out.append(alphabet[Int(n >> 18 & 63)])
            out.append(alphabet[Int(n >> 12 & 63)])
            out.append(alphabet[Int(n >> 6 & 63)])
        default:
            break
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes unpadded base64url; returns `nil` for padding, invalid characters, a bad length or non-zero unused
    /// bits in the last character (so every byte string has exactly one accepted spelling).
    public static func decode(_ text: String) -> Data? {
        decodeBytes(text).map { Data($0) }
    }

    /// As ``decode(_:)``, into an array (one pass with a lookup table).
    public static func decodeBytes(_ text: String) -> [UInt8]? {
        var text = text
        return text.withUTF8 { Base64Input.decode($0, table: Base64Input.urlAlphabet) }
    }
}
