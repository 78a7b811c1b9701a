import CBOR
import Foundation
import OpenID4VP
import SessionStore
import WebPresentment

/// One presentation request offered over several protocols, kept as one one-time record: each offered protocol's
/// own session (its keys, nonce, origin, what was asked), and the order they were offered in. It is taken once,
/// whichever protocol answers, so a second answer (in another protocol too) finds it used.
///
/// Stored as a ``SessionRecord`` of kind `dc-presentation` whose payload is a ``StoredPayload`` (version 1:
/// `offered`, and `web`, `signed`, `unsigned`: each the stored payload of that protocol's session, or null).
public struct PresentationSession: StoredSession {
    public static let kind: SessionKind = "dc-presentation"
    static let payloadVersion: Int64 = 1
    static let payloadMembers: Set<String> = ["offered", "web", "signed", "unsigned"]

    /// The protocols offered, in the order the page passed them to the browser.
    public let offered: [DigitalCredentialProtocol]
    /// The Annex C session, when `org-iso-mdoc` was offered.
    public let web: WebSession?
    /// The OpenID4VP session of the signed request, when offered.
    public let signed: OpenID4VPSession?
    /// The OpenID4VP session of the unsigned request, when offered.
    public let unsigned: OpenID4VPSession?

    /// Nil unless every offered protocol has its session and no session is kept for a protocol not offered.
    public init?(offered: [DigitalCredentialProtocol], web: WebSession?, signed: OpenID4VPSession?, unsigned: OpenID4VPSession?) {
        guard !offered.isEmpty, Set(offered).count == offered.count,
              offered.contains(.isoMdoc) == (web != nil), offered.contains(.openID4VPSigned) == (signed != nil),
              offered.contains(.openID4VPUnsigned) == (unsigned != nil),
              signed.map({ $0.flow == .digitalCredentialsAPI && $0.clientId != nil }) ?? true,
              unsigned.map({ $0.flow == .digitalCredentialsAPI && $0.clientId == nil }) ?? true
        else { return nil }
        self.offered = offered
        self.web = web
        self.signed = signed
        self.unsigned = unsigned
    }

    /// The record to store under `id`; the whole payload (keys included) is sealed at rest by the store.
    public func record(id: String, createdAt: Date, expiresAt: Date) -> SessionRecord {
        // Each part's payload holds its private key: the copies made here are cleared once encoded.
        var parts = [
            web?.record(id: id, createdAt: createdAt, expiresAt: expiresAt).payload.bytes,
            signed?.record(id: id, createdAt: createdAt, expiresAt: expiresAt).payload.bytes,
            unsigned?.record(id: id, createdAt: createdAt, expiresAt: expiresAt).payload.bytes,
        ]
        var payload = Self.encode(offered: offered, parts: parts)
        for index in parts.indices {
            parts[index]?.withUnsafeMutableBufferPointer { $0.initialize(repeating: 0) }
        }
        return SessionRecord(id: id, kind: Self.kind, createdAt: createdAt, expiresAt: expiresAt,
                             payload: SecretBytes(consuming: &payload))
    }

    /// The stored form; the CBOR values holding the parts end with this call, so the caller's arrays are again the
    /// only references to their storage when it clears them.
    private static func encode(offered: [DigitalCredentialProtocol], parts: [[UInt8]?]) -> [UInt8] {
        let nested = parts.map { part in part.map { CBOR.bytes($0) } ?? .null }
        return StoredPayload.encode(version: payloadVersion, [
            ("offered", .array(offered.map { .text($0.rawValue) })),
            ("web", nested[0]), ("signed", nested[1]), ("unsigned", nested[2]),
        ])
    }

    /// Reads a stored record back; nil when it is not one this type wrote (a part that does not read back is a
    /// broken record, never "not offered").
    public init?(record: SessionRecord) {
        guard record.kind == Self.kind,
              let payload = record.payload.withUnsafeBytes({ StoredPayload(Array($0), version: Self.payloadVersion,
                                                                           members: Self.payloadMembers) }),
              let names = payload["offered"]?.arrayValue, names.count <= DigitalCredentialProtocol.allCases.count
        else { return nil }
        var offered: [DigitalCredentialProtocol] = []
        for name in names {
            guard let text = name.textValue, let offer = DigitalCredentialProtocol(rawValue: text) else { return nil }
            offered.append(offer)
        }
        func part<Session>(_ name: String, kind: SessionKind, _ read: (SessionRecord) -> Session?) -> Session?? {
            guard let item = payload[name] else { return nil }
            if item.isNull { return .some(nil) }
            guard let bytes = item.bytesValue else { return nil }
            let inner = SessionRecord(id: record.id, kind: kind, createdAt: record.createdAt, expiresAt: record.expiresAt,
                                      payload: SecretBytes(bytes), owner: record.owner)
            return read(inner).map { .some($0) }
        }
        guard let web = part("web", kind: WebSession.kind, WebSession.init(record:)),
              let signed = part("signed", kind: .oid4vpDigitalCredentialsAPI, OpenID4VPSession.init(record:)),
              let unsigned = part("unsigned", kind: .oid4vpDigitalCredentialsAPI, OpenID4VPSession.init(record:))
        else { return nil }
        self.init(offered: offered, web: web, signed: signed, unsigned: unsigned)
    }
}
