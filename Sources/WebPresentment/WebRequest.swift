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
        var generator = SystemRandomNumberGenerator()
        let nonce = (0..<EncryptionInfo.nonceLength).map { _ in UInt8.random(in: 0...255, using: &generator) }
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

/// What a caller may ask for in one request, and the default.
public enum WebRequestLimits {
    public static let maximumDocuments = DeviceResponse.maximumDocuments
    public static let maximumElementsPerDocument = 256
    public static let maximumNameLength = 256

    /// mDL family_name, given_name, birth_date and age_over_21, none retained.
    public static let defaultRequest = RequestedItems(documents: [
        .init(docType: "org.iso.18013.5.1.mDL", nameSpaces: [
            (nameSpace: "org.iso.18013.5.1", elements: ["family_name", "given_name", "birth_date", "age_over_21"]
                .map { RequestedItems.Element($0, intentToRetain: false) }),
        ]),
    ])

    /// Nil when the request is within limits, else why not.
    public static func problem(with requested: RequestedItems) -> String? {
        guard !requested.documents.isEmpty else { return "\"documents\" is empty" }
        guard requested.documents.count <= maximumDocuments else {
            return "\"documents\" lists \(requested.documents.count) entries; at most \(maximumDocuments)"
        }
        for (index, document) in requested.documents.enumerated() {
            let names = [document.docType] + document.nameSpaces.map(\.nameSpace)
                + document.nameSpaces.flatMap { $0.elements.map(\.identifier) }
            guard names.allSatisfy({ !$0.isEmpty && $0.utf8.count <= maximumNameLength }) else {
                return "documents[\(index)] has an empty name or one longer than \(maximumNameLength) bytes"
            }
            let count = document.nameSpaces.reduce(0) { $0 + $1.elements.count }
            guard count > 0 else { return "documents[\(index)] requests no element" }
            guard count <= maximumElementsPerDocument else {
                return "documents[\(index)] requests \(count) elements; at most \(maximumElementsPerDocument)"
            }
        }
        return nil
    }
}
