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

    /// As ``decode(_:)``, into an array, in one pass with a lookup table.
    public static func decodeBytes(_ text: String) -> [UInt8]? {
        var text = text
        return text.withUTF8 { decode(utf8: $0) }
    }

    /// 0...63 for alphabet characters, 0xFF for anything else.
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, character) in alphabet.enumerated() { table[Int(character)] = UInt8(index) }
        return table
    }()

    static func decode(utf8 input: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        let remainder = input.count % 4
        guard remainder != 1 else { return nil }
        var out = [UInt8]()
        out.reserveCapacity(input.count / 4 * 3 + 2)
        return values.withUnsafeBufferPointer { table -> [UInt8]? in
            var index = 0
            let whole = input.count - remainder
            while index < whole {
                let a = table[Int(input[index])], b = table[Int(input[index + 1])]
                let c = table[Int(input[index + 2])], d = table[Int(input[index + 3])]
                guard (a | b | c | d) & 0xC0 == 0 else { return nil }
                let n = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
                out.append(UInt8(truncatingIfNeeded: n >> 16))
                out.append(UInt8(truncatingIfNeeded: n >> 8))
                out.append(UInt8(truncatingIfNeeded: n))
                index += 4
            }
            switch remainder {
            case 2:
                let a = table[Int(input[index])], b = table[Int(input[index + 1])]
                guard (a | b) & 0xC0 == 0, b & 0x0F == 0 else { return nil }
                out.append(a << 2 | b >> 4)
            case 3:
                let a = table[Int(input[index])], b = table[Int(input[index + 1])], c = table[Int(input[index + 2])]
                guard (a | b | c) & 0xC0 == 0, c & 0x03 == 0 else { return nil }
                out.append(a << 2 | b >> 4)
                out.append((b & 0x0F) << 4 | c >> 2)
            default:
                break
            }
            return out
        }
    }
}
