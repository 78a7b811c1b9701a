import CBOR
import Crypto
import Foundation
import MDoc
import SessionStore

/// What the service keeps between creating a request and verifying its answer: the recipient private key, the
/// exact encryptionInfo string, the origin and the requested elements. Stored as a ``SessionRecord`` of kind
/// `web` whose payload is a ``StoredPayload`` (version 1: `origin`, `encryptionInfo`, `recipientKey`, `requested`)
/// in ``SecretBytes`` (zeroed when released).
public struct WebSession: StoredSession {
    public static let kind = SessionKind.web
    static let payloadVersion: Int64 = 1
    static let payloadMembers: Set<String> = ["origin", "encryptionInfo", "recipientKey", "requested"]

    public let origin: SerializedOrigin
    public let encryptionInfo: String
    public let recipientKey: P256.KeyAgreement.PrivateKey
    /// What was requested; nil for a stateless verification, where the caller kept the request.
    public let requested: RequestedItems?
    /// The dcapi SessionTranscript, from `encryptionInfo` and `origin`.
    public let transcript: DCAPISessionTranscript

    public init(origin: SerializedOrigin, encryptionInfo: String, recipientKey: P256.KeyAgreement.PrivateKey,
                requested: RequestedItems?) {
        self.origin = origin
        self.encryptionInfo = encryptionInfo
        self.recipientKey = recipientKey
        self.requested = requested
        self.transcript = DCAPISessionTranscript(encryptionInfo: encryptionInfo, origin: origin.text)
    }

    public init(_ request: WebRequest) {
        self.init(origin: request.origin, encryptionInfo: request.encryptionInfo.base64URL,
                  recipientKey: request.recipientKey, requested: request.requested)
    }

    /// A session for an answer whose request the caller kept (the stateless variant): the encryptionInfo string
    /// exactly as the page got it, and the private key of its recipientPublicKey (else `RECIPIENT_KEY_UNKNOWN`).
    public static func stateless(encryptionInfo: String, origin: SerializedOrigin,
                                 recipientKey: P256.KeyAgreement.PrivateKey) throws(ResponseFailure) -> WebSession {
        let info = try EncryptionInfo(base64URL: encryptionInfo)
        guard info.recipientPublicKey.x963Representation == recipientKey.publicKey.x963Representation else {
            throw ResponseFailure(.recipientKeyUnknown, "the key does not match the encryptionInfo's recipientPublicKey")
        }
        return WebSession(origin: origin, encryptionInfo: encryptionInfo, recipientKey: recipientKey, requested: nil)
    }

    /// The record to store.
    public func record(id: String, createdAt: Date, expiresAt: Date) -> SessionRecord {
        SessionRecord(id: id, kind: Self.kind, createdAt: createdAt, expiresAt: expiresAt,
                      secret: Array(recipientKey.rawRepresentation)) { key in
            StoredPayload.encode(version: Self.payloadVersion, [
                ("origin", .text(origin.text)), ("encryptionInfo", .text(encryptionInfo)), ("recipientKey", .bytes(key)),
                ("requested", requested?.storageForm ?? .null),
            ])
        }
    }

    /// Reads a stored record back; nil if the payload is not one this type wrote.
    public init?(record: SessionRecord) {
        guard record.kind == Self.kind,
              let payload = record.payload.withUnsafeBytes({ StoredPayload(Array($0), version: Self.payloadVersion,
                                                                           members: Self.payloadMembers) }),
              let originText = payload["origin"]?.textValue, let origin = SerializedOrigin(originText),
              let info = payload["encryptionInfo"]?.textValue, let keyBytes = payload["recipientKey"]?.bytesValue,
              let key = try? P256.KeyAgreement.PrivateKey(rawRepresentation: keyBytes), let stored = payload["requested"]
        else { return nil }
        var requested: RequestedItems?
        if !stored.isNull {
            // A stored request that does not read back is a broken record, never "no request".
            guard let items = RequestedItems(storageForm: stored) else { return nil }
            requested = items
        }
        self.init(origin: origin, encryptionInfo: info, recipientKey: key, requested: requested)
    }
}

extension SessionKind {
    /// An Annex C web session (`POST /v1/web/requests`).
    public static let web: SessionKind = "web"
}
