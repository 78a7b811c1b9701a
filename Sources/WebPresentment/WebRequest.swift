import CBOR
import Crypto
import Encodings
import MDoc
import ReaderAuthentication

/// One Annex C request, as the page passes it to `navigator.credentials.get`, and what verifying its answer needs.
public struct WebRequest: Sendable {
    public static let protocolIdentifier = "org-iso-mdoc"

    public let origin: SerializedOrigin
    public let requested: RequestedItems
    /// Fresh per request; never leaves the service except into the session store.
    public let recipientKey: P256.KeyAgreement.PrivateKey
    public let encryptionInfo: EncryptionInfo
    /// base64url(DeviceRequest), for `data.deviceRequest`.
    public let deviceRequest: String
    public let transcript: DCAPISessionTranscript

    /// Makes a request with a new P-256 recipient key and a new 32-byte nonce from the system generator.
    public init(origin: SerializedOrigin, requested: RequestedItems, builder: DeviceRequestBuilder) throws {
        let nonce = RandomBytes.make(EncryptionInfo.nonceLength)
        let key = P256.KeyAgreement.PrivateKey()
        let info = EncryptionInfo(nonce: nonce, recipientPublicKey: key.publicKey)
        let transcript = DCAPISessionTranscript(encryptionInfo: info.base64URL, origin: origin.text)
        self.origin = origin
        self.requested = requested
        self.recipientKey = key
        self.encryptionInfo = info
        self.transcript = transcript
        self.deviceRequest = Base64URL.encode(try builder.build(requested, sessionTranscript: transcript.bytes))
    }
}
