import Crypto
import Encodings
import Foundation
import SessionStore

/// The AES-256-GCM key that seals session payloads before they reach the database, so the table never holds a
/// reader or recipient private key in plain text. The record's identity (ID, kind, expiry) is bound as associated
/// data, so a sealed payload moved to another row does not open.
public struct SessionSealingKey: Sendable {
    private let key: SymmetricKey

    /// From a key file: 32 bytes, as base64 or hex text (surrounding whitespace ignored) or raw.
    public init(file: URL) throws(PostgresStoreError) {
        guard let data = FileManager.default.contents(atPath: file.path) else {
            throw .configuration(setting: "store.sessionKeyFile", reason: "cannot read \(file.path)")
        }
        try self.init(keyFileContents: Array(data), source: file.path)
    }

    init(keyFileContents contents: [UInt8], source: String) throws(PostgresStoreError) {
        guard let bytes = SymmetricKeyFile.keyBytes(contents) else {
            throw .configuration(setting: "store.sessionKeyFile",
                                 reason: "\(source) does not hold a 32-byte key (base64, hex, or 32 raw bytes); "
                                     + "make one with: openssl rand -base64 32")
        }
        key = SymmetricKey(data: bytes)
    }

    /// A key from bytes (tests).
    public init(bytes: [UInt8]) throws(PostgresStoreError) {
        try self.init(keyFileContents: bytes, source: "key")
    }

    static func associatedData(id: String, kind: String, expiresAt: Date) -> [UInt8] {
        Array("verifierd-session-v1\u{0}\(id)\u{0}\(kind)\u{0}\(Int64(expiresAt.timeIntervalSince1970 * 1000))".utf8)
    }

    /// nonce ‖ ciphertext ‖ tag.
    func seal(_ record: SessionRecord) throws(PostgresStoreError) -> [UInt8] {
        do {
            let sealed = try record.payload.withUnsafeBytes { payload in
                try AES.GCM.seal(payload, using: key, authenticating: Self.associatedData(
                    id: record.id, kind: record.kind.rawValue, expiresAt: record.expiresAt))
            }
            guard let combined = sealed.combined else { throw PostgresStoreError.corrupt("cannot seal") }
            return Array(combined)
        } catch {
            throw .corrupt("cannot seal the session: \(error)")
        }
    }

    func open(_ sealed: [UInt8], id: String, kind: String, expiresAt: Date) throws(PostgresStoreError) -> SecretBytes {
        do {
            let box = try AES.GCM.SealedBox(combined: sealed)
            var plain = Array(try AES.GCM.open(box, using: key, authenticating: Self.associatedData(
                id: id, kind: kind, expiresAt: expiresAt)))
            return SecretBytes(consuming: &plain)
        } catch {
            throw .corrupt("the session \(kind) does not open with store.sessionKeyFile")
        }
    }
}
