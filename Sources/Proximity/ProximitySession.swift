import CBOR
import Crypto
import Foundation
import MDoc
import SessionStore

/// What the service keeps between opening a proximity session and receiving the mdoc's answer: the reader's
/// ephemeral private key, the SessionTranscript, the mdoc's ephemeral public key and what was requested. Stored as a
/// ``SessionRecord`` of kind `proximity` whose payload is a ``StoredPayload`` (version 1: `eReaderKey`, `eDeviceKey`,
/// `transcript`, `requested`) in ``SecretBytes``.
public struct ProximitySession: StoredSession {
    public static let kind = SessionKind.proximity
    static let payloadVersion: Int64 = 1
    static let payloadMembers: Set<String> = ["eReaderKey", "eDeviceKey", "transcript", "requested"]

    public let eReaderKey: P256.KeyAgreement.PrivateKey
    public let eDeviceKey: P256.KeyAgreement.PublicKey
    /// The SessionTranscript array bytes.
    public let transcript: [UInt8]
    public let requested: RequestedItems

    public init(eReaderKey: P256.KeyAgreement.PrivateKey, eDeviceKey: P256.KeyAgreement.PublicKey, transcript: [UInt8],
                requested: RequestedItems) {
        self.eReaderKey = eReaderKey
        self.eDeviceKey = eDeviceKey
        self.transcript = transcript
        self.requested = requested
    }

    public func record(id: String, createdAt: Date, expiresAt: Date) -> SessionRecord {
        SessionRecord(id: id, kind: Self.kind, createdAt: createdAt, expiresAt: expiresAt,
                      secret: Array(eReaderKey.rawRepresentation)) { key in
            StoredPayload.encode(version: Self.payloadVersion, [
                ("eReaderKey", .bytes(key)), ("eDeviceKey", .bytes(Array(eDeviceKey.x963Representation))),
                ("transcript", .bytes(transcript)), ("requested", requested.storageForm),
            ])
        }
    }

    public init?(record: SessionRecord) {
        guard record.kind == Self.kind,
              let payload = record.payload.withUnsafeBytes({ StoredPayload(Array($0), version: Self.payloadVersion,
                                                                           members: Self.payloadMembers) }),
              let keyBytes = payload["eReaderKey"]?.bytesValue, let key = try? P256.KeyAgreement.PrivateKey(rawRepresentation: keyBytes),
              let pointBytes = payload["eDeviceKey"]?.bytesValue,
              let point = try? P256.KeyAgreement.PublicKey(x963Representation: pointBytes),
              let transcript = payload["transcript"]?.bytesValue, let stored = payload["requested"],
              let requested = RequestedItems(storageForm: stored)
        else { return nil }
        self.init(eReaderKey: key, eDeviceKey: point, transcript: Array(transcript), requested: requested)
    }
}

extension SessionKind {
    /// A proximity session (`POST /v1/proximity/sessions`).
    public static let proximity: SessionKind = "proximity"
}
