import CBOR
import Crypto
import Foundation
import MDoc
import SessionStore

/// What the service keeps between opening a proximity session and receiving the mdoc's answer: the reader's
/// ephemeral private key, the SessionTranscript, the mdoc's ephemeral public key and what was requested. Stored as a
/// ``SessionRecord`` of kind `proximity` whose payload lives in ``SecretBytes``.
public struct ProximitySession: StoredSession {
    public static let kind = "proximity"

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
            CBOREncoder().encode([.bytes(key), .bytes(Array(eDeviceKey.x963Representation)), .bytes(transcript), requested.storageForm])
        }
    }

    public init?(record: SessionRecord) {
        guard record.kind == Self.kind else { return nil }
        let decoded = record.payload.withUnsafeBytes { try? CBORDecoder().decode(Array($0)) }
        guard let parts = decoded?.arrayValue, parts.count == 4,
              let keyBytes = parts[0].bytesValue, let key = try? P256.KeyAgreement.PrivateKey(rawRepresentation: keyBytes),
              let pointBytes = parts[1].bytesValue,
              let point = try? P256.KeyAgreement.PublicKey(x963Representation: pointBytes),
              let transcript = parts[2].bytesValue, let requested = RequestedItems(storageForm: parts[3])
        else { return nil }
        self.init(eReaderKey: key, eDeviceKey: point, transcript: Array(transcript), requested: requested)
    }
}
