import Crypto
import Foundation

/// An endpoint's signing secret in the Standard Webhooks form: `whsec_` and the base64 of 24 to 64 random bytes (the
/// form the receivers' libraries take as is). Never logged: its description names only its length.
public struct WebhookSecret: Sendable, CustomStringConvertible {
    public static let prefix = "whsec_"
    let key: SymmetricKey

    /// Reads `whsec_<base64>` (surrounding white space ignored); nil for anything else.
    public init?(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.hasPrefix(Self.prefix), let bytes = Data(base64Encoded: String(trimmed.dropFirst(Self.prefix.count))),
              (24...64).contains(bytes.count) else { return nil }
        key = SymmetricKey(data: bytes)
    }

    public var description: String { "WebhookSecret(\(key.bitCount / 8) bytes)" }
}
