import CBOR
import Crypto
import Encodings

/// What the browser returns in `credential.data.response`, decoded:
/// `["dcapi", {"enc": bstr(65), "cipherText": bstr}]`. Parsing is strict: exactly these keys, an uncompressed
/// P-256 point, a ciphertext at least as long as the GCM tag, no trailing bytes.
public struct DCAPIEncryptedResponse: Sendable {
    /// HPKE `enc`: the sender's ephemeral P-256 public key, `04 || X || Y`.
    public let enc: [UInt8]
    /// AES-128-GCM ciphertext followed by its 16-byte tag.
    public let cipherText: ArraySlice<UInt8>

    /// Responses larger than this are refused before decoding (a DeviceResponse is capped at 4 MiB too).
    public static let maximumBytes = 4 << 20
    static let limits = CBORDecodingLimits(maxDepth: 3, maxItems: 8, maxInputBytes: maximumBytes + 64)

    public init(bytes: [UInt8]) throws(WebPresentmentError) {
        let item: CBORItem
        do {
            item = try CBORDecoder(limits: Self.limits).decode(bytes)
        } catch {
            throw Self.malformed("the response is not one CBOR item: \(error)")
        }
        guard let parts = item.arrayValue, parts.count == 2 else {
            throw Self.malformed("the response is not a two-element array [\"dcapi\", {enc, cipherText}]")
        }
        guard parts[0].textValue == DCAPISessionTranscript.handoverType else {
            throw Self.malformed("the response type is not \"dcapi\"")
        }
        guard let fields = parts[1].mapValue, fields.count == 2 else {
            throw Self.malformed("EncryptedResponseData is not a map of enc and cipherText")
        }
        var enc: ArraySlice<UInt8>?
        var cipherText: ArraySlice<UInt8>?
        for pair in fields {
            switch pair.key.textValue {
            case "enc": enc = pair.value.bytesValue
            case "cipherText": cipherText = pair.value.bytesValue
            default: throw Self.malformed("EncryptedResponseData has an unexpected key at offset \(pair.key.offset)")
            }
        }
        guard let enc, enc.count == 65, enc.first == 0x04,
              (try? P256.KeyAgreement.PublicKey(x963Representation: enc)) != nil
        else {
            throw Self.malformed("enc is not an uncompressed point on P-256")
        }
        guard let cipherText, cipherText.count >= 16 else {
            throw Self.malformed("cipherText is missing or shorter than the GCM tag")
        }
        self.enc = Array(enc)
        self.cipherText = cipherText
    }

    /// Decodes the base64url string the browser returned (padding and the standard alphabet are refused, as
    /// browsers never produce them).
    public init(base64URL text: String) throws(WebPresentmentError) {
        guard text.utf8.count <= (Self.maximumBytes / 3 + 1) * 4 else {
            throw Self.malformed("the response is longer than \(Self.maximumBytes) bytes")
        }
        guard let data = Base64URL.decodeBytes(text) else {
            throw Self.malformed("the response is not base64url without padding")
        }
        try self.init(bytes: data)
    }

    static func malformed(_ detail: String) -> WebPresentmentError {
        WebPresentmentError(.envelopeMalformed, detail)
    }
}
