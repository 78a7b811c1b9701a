import CBOR
import COSE
import Crypto
import Encodings

/// `EncryptionInfo = ["dcapi", {"nonce": bstr, "recipientPublicKey": COSE_Key}]` (ISO/IEC 18013-7 Annex C), sent
/// to the browser as base64url without padding. The transcript hashes that exact string, so it is kept as sent.
public struct EncryptionInfo: Sendable {
    public static let type = "dcapi"
    /// The nonce length we generate; Annex C asks for at least 16 bytes.
    public static let nonceLength = 32
    public static let minimumNonceLength = 16

    public let nonce: [UInt8]
    public let recipientPublicKey: P256.KeyAgreement.PublicKey
    /// The deterministic CBOR encoding.
    public let bytes: [UInt8]
    /// What goes into `data.encryptionInfo` and into the transcript.
    public let base64URL: String

    /// Encodes a new EncryptionInfo.
    public init(nonce: [UInt8], recipientPublicKey: P256.KeyAgreement.PublicKey) {
        self.nonce = nonce
        self.recipientPublicKey = recipientPublicKey
        let point = Array(recipientPublicKey.x963Representation)
        let coseKey: CBOR = .map([
            .init(1, 2), .init(-1, 1), .init(-2, .bytes(Array(point[1..<33]))), .init(-3, .bytes(Array(point[33..<65]))),
        ])
        let value: CBOR = [.text(Self.type), .map([.init("nonce", .bytes(nonce)), .init("recipientPublicKey", coseKey)])]
        bytes = CBOREncoder(mode: .deterministic).encode(value)
        base64URL = Base64URL.encode(bytes)
    }

    static let limits = CBORDecodingLimits(maxDepth: 4, maxItems: 16, maxInputBytes: 1024)

    /// Reads an EncryptionInfo string a caller kept (the stateless variant), keeping the string exactly.
    public init(base64URL text: String) throws(WebPresentmentError) {
        guard let data = Base64URL.decodeBytes(text) else {
            throw WebPresentmentError(.envelopeMalformed, "encryptionInfo is not base64url without padding")
        }
        let item: CBORItem
        do {
            item = try CBORDecoder(limits: Self.limits).decode(data)
        } catch {
            throw WebPresentmentError(.envelopeMalformed, "encryptionInfo is not one CBOR item: \(error)")
        }
        guard let parts = item.arrayValue, parts.count == 2, parts[0].textValue == Self.type,
              let fields = parts[1].mapValue, fields.count == 2
        else {
            throw WebPresentmentError(.envelopeMalformed, "encryptionInfo is not [\"dcapi\", {nonce, recipientPublicKey}]")
        }
        var nonce: [UInt8]?
        var key: P256.KeyAgreement.PublicKey?
        for pair in fields {
            switch pair.key.textValue {
            case "nonce":
                nonce = pair.value.bytesValue.map(Array.init)
            case "recipientPublicKey":
                guard let coseKey = try? COSEKey(item: pair.value), coseKey.curve == .p256 else {
                    throw WebPresentmentError(.envelopeMalformed, "recipientPublicKey is not a P-256 COSE_Key")
                }
                key = try? P256.KeyAgreement.PublicKey(x963Representation: coseKey.x963Representation)
            default:
                throw WebPresentmentError(.envelopeMalformed, "encryptionInfo has an unexpected key")
            }
        }
        guard let nonce, nonce.count >= Self.minimumNonceLength, let key else {
            throw WebPresentmentError(.envelopeMalformed, "encryptionInfo needs a nonce of at least 16 bytes and a key")
        }
        self.nonce = nonce
        self.recipientPublicKey = key
        self.bytes = data
        self.base64URL = text
    }
}
