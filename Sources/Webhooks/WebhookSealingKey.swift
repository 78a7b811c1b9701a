import Crypto
import Encodings
import Foundation

/// The AES-256-GCM key that seals the bodies of the directory outbox's messages (`webhooks.outboxKeyFile`): a body is
/// a report with the holder's claim values, and it waits on disk until it is delivered, so the disk never holds it
/// in plain text, as the PostgreSQL outbox's rows never do. The message's ID and integrator are bound as associated
/// data, so a sealed body copied into another message's file does not open.
public struct WebhookSealingKey: Sendable {
    private let key: SymmetricKey

    /// From a key file: 32 bytes, as base64 or hex text or raw (``SymmetricKeyFile``).
    public init(file: URL) throws(WebhookOutboxError) {
        guard let data = FileManager.default.contents(atPath: file.path) else {
            throw .unavailable("cannot read the key file \(file.path)")
        }
        guard let bytes = SymmetricKeyFile.keyBytes(Array(data)) else {
            throw .unavailable("\(file.path) does not hold a 32-byte key (base64, hex, or 32 raw bytes); make one with: openssl rand -base64 32")
        }
        key = SymmetricKey(data: bytes)
    }

    /// A key from its 32 bytes (tests).
    public init(bytes: [UInt8]) {
        precondition(bytes.count == 32, "an AES-256 key is 32 bytes")
        key = SymmetricKey(data: bytes)
    }

    static func associatedData(id: String, integrator: String) -> [UInt8] {
        Array("verifierd-webhook-v2\u{0}\(id)\u{0}\(integrator)".utf8)
    }

    /// nonce ‖ ciphertext ‖ tag.
    func seal(_ body: [UInt8], id: String, integrator: String) throws(WebhookOutboxError) -> [UInt8] {
        do {
            guard let combined = try AES.GCM.seal(body, using: key, authenticating: Self.associatedData(id: id, integrator: integrator)).combined
            else { throw WebhookOutboxError.unavailable("cannot seal the message") }
            return Array(combined)
        } catch {
            throw .unavailable("cannot seal the message")
        }
    }

    /// The body, or nil when `sealed` does not open with this key for this message.
    func open(_ sealed: [UInt8], id: String, integrator: String) -> [UInt8]? {
        guard let box = try? AES.GCM.SealedBox(combined: sealed),
              let plain = try? AES.GCM.open(box, using: key, authenticating: Self.associatedData(id: id, integrator: integrator))
        else { return nil }
        return Array(plain)
    }
}
