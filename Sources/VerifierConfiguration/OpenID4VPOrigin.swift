import Encodings
import WebPresentment

/// An origin OpenID4VP over the Digital Credentials API may bind: a serialized web origin, or a native Android
/// caller's `android:apk-key-hash:<base64url SHA-256 of its signing certificate>`.
enum OpenID4VPOrigin {
    static let androidPrefix = "android:apk-key-hash:"

    static func isValid(_ text: String) -> Bool {
        if text.hasPrefix(androidPrefix) {
            let hash = String(text.dropFirst(androidPrefix.count))
            return hash.utf8.count == 43 && Base64URL.decodeBytes(hash)?.count == 32
        }
        return SerializedOrigin(text)?.text == text
    }
}
