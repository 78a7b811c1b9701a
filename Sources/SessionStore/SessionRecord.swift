import Foundation

/// One stored session: an opaque payload that the flow owning it encodes (it may hold private keys), its
/// identifier and when it stops being usable.
public struct SessionRecord: Sendable {
    public let id: String
    /// What created the session (e.g. `web`), so one store can serve several flows without confusing them.
    public let kind: SessionKind
    public let createdAt: Date
    public let expiresAt: Date
    public let payload: SecretBytes
    /// Who created the session (an integrator's name; empty when no one is named): only the same owner can take
    /// it, and quotas count sessions per owner.
    public let owner: String

    public init(id: String, kind: SessionKind, createdAt: Date, expiresAt: Date, payload: SecretBytes, owner: String = "") {
        self.id = id
        self.kind = kind
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.payload = payload
        self.owner = owner
    }

    /// The same session, owned by `owner`.
    public func owned(by owner: String) -> SessionRecord {
        SessionRecord(id: id, kind: kind, createdAt: createdAt, expiresAt: expiresAt, payload: payload, owner: owner)
    }
}

extension SessionRecord {
    /// A record whose payload is `encode(secret)` moved into ``SecretBytes``; the caller's copy of `secret` (a
    /// private key's bytes) and the intermediate encoding are cleared.
    public init(id: String, kind: SessionKind, createdAt: Date, expiresAt: Date, secret: [UInt8],
                encode: ([UInt8]) -> [UInt8]) {
        var secret = secret
        var payload = encode(secret)
        secret.withUnsafeMutableBufferPointer { $0.initialize(repeating: 0) }
        self.init(id: id, kind: kind, createdAt: createdAt, expiresAt: expiresAt, payload: SecretBytes(consuming: &payload))
    }
}
