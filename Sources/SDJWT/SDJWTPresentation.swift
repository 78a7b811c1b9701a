/// An SD-JWT presentation split into its parts (RFC 9901 4, 7.1 step 1): `<issuer JWT>~<D1>~…~<Dn>~<KB-JWT>`, or the
/// same ending in `~` without key binding. Nothing is decoded yet; every part is kept as received.
public struct SDJWTPresentation: Sendable {
    /// The whole presentation as received.
    public let text: String
    public let issuerJWT: Substring
    public let disclosures: [Substring]
    /// Nil when the presentation ends in `~`.
    public let keyBindingJWT: Substring?
    /// The presentation up to and including its last `~`: what the KB-JWT's `sd_hash` covers.
    public let keyBindingInput: Substring

    public init(_ text: String, limits: SDJWTLimits) throws(SDJWTFailure) {
        guard text.utf8.count <= limits.maximumBytes else {
            throw SDJWTFailure(.malformed, "the presentation is \(text.utf8.count) bytes; at most \(limits.maximumBytes)")
        }
        // Only base64url characters, '.' and '~' can appear: anything else (space, line break, '=') is refused here.
        var copy = text
        guard copy.withUTF8({ $0.allSatisfy { Self.presentationBytes[Int($0)] } }) else {
            throw SDJWTFailure(.malformed, "the presentation holds a byte that is not base64url, '.' or '~'")
        }
        // Split the bytes, not the Characters: every byte is ASCII (checked above), so byte and Character
        // boundaries agree, and byte splitting costs no grapheme breaking.
        let parts = Substring(text).splitBytes(UInt8(ascii: "~"))
        guard parts.count >= 2 else {
            throw SDJWTFailure(.malformed, "an SD-JWT presentation has at least one '~' (after the issuer-signed JWT)")
        }
        guard parts.count - 2 <= limits.maximumDisclosures else {
            throw SDJWTFailure(.malformed, "the presentation holds \(parts.count - 2) disclosures; at most \(limits.maximumDisclosures)")
        }
        guard !parts[0].isEmpty else { throw SDJWTFailure(.malformed, "the issuer-signed JWT is empty") }
        let middle = parts[1..<(parts.count - 1)]
        guard !middle.contains(where: \.isEmpty) else { throw SDJWTFailure(.malformed, "a disclosure is empty ('~~')") }
        self.text = text
        issuerJWT = parts[0]
        disclosures = Array(middle)
        let last = parts[parts.count - 1]
        // Without key binding the presentation ends in '~'; anything else after the last '~' must be a compact JWS.
        guard last.isEmpty || last.utf8.lazy.filter({ $0 == UInt8(ascii: ".") }).count == 2 else {
            throw SDJWTFailure(.malformed, "the presentation neither ends in '~' nor in a KB-JWT")
        }
        keyBindingJWT = last.isEmpty ? nil : last
        keyBindingInput = text[..<last.startIndex]
    }

    /// ``isPresentationByte(_:)`` for every byte value.
    static let presentationBytes: [Bool] = (0...255).map { isPresentationByte(UInt8($0)) }

    static func isPresentationByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }
}
