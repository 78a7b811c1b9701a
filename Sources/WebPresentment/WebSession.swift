import CBOR
import Crypto
import Foundation
import MDoc
import SessionStore

/// What the service keeps between creating a request and verifying its answer: the recipient private key, the
/// exact encryptionInfo string, the origin and the requested elements. Stored as a ``SessionRecord`` of kind
/// `web` whose payload is CBOR in ``SecretBytes`` (zeroed when released).
public struct WebSession: Sendable {
    public static let kind = "web"

    public let origin: SerializedOrigin
    public let encryptionInfo: String
    public let recipientKey: P256.KeyAgreement.PrivateKey
    public let requested: RequestedItems

    public init(origin: SerializedOrigin, encryptionInfo: String, recipientKey: P256.KeyAgreement.PrivateKey,
                requested: RequestedItems) {
        self.origin = origin
        self.encryptionInfo = encryptionInfo
        self.recipientKey = recipientKey
        self.requested = requested
    }

    public init(_ request: WebRequest) {
        self.init(origin: request.origin, encryptionInfo: request.encryptionInfo.base64URL,
                  recipientKey: request.recipientKey, requested: request.requested)
    }

    public var transcript: DCAPISessionTranscript {
        DCAPISessionTranscript(encryptionInfo: encryptionInfo, origin: origin.text)
    }

    /// The record to store.
    public func record(id: String, createdAt: Date, expiresAt: Date) -> SessionRecord {
        SessionRecord(id: id, kind: Self.kind, createdAt: createdAt, expiresAt: expiresAt,
                      secret: Array(recipientKey.rawRepresentation)) { key in
            CBOREncoder().encode([.text(origin.text), .text(encryptionInfo), .bytes(key), requested.storageForm])
        }
    }

    /// Reads a stored record back; nil if the payload is not one this type wrote.
    public init?(record: SessionRecord) {
        guard record.kind == Self.kind else { return nil }
        let decoded = record.payload.withUnsafeBytes { try? CBORDecoder().decode(Array($0)) }
        guard let parts = decoded?.arrayValue, parts.count == 4,
              let originText = parts[0].textValue, let origin = SerializedOrigin(originText),
              let info = parts[1].textValue, let keyBytes = parts[2].bytesValue,
              let key = try? P256.KeyAgreement.PrivateKey(rawRepresentation: keyBytes),
              let requested = RequestedItems(storageForm: parts[3])
        else { return nil }
        self.init(origin: origin, encryptionInfo: info, recipientKey: key, requested: requested)
    }
}
