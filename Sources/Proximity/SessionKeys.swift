import Crypto
import Foundation

/// The session encryption keys of ISO 18013-5 9.1.1.5: ECDH between the ephemeral keys, then HKDF-SHA256 with
/// salt = SHA-256(SessionTranscriptBytes) and info "SKReader" / "SKDevice", 32 bytes each (AES-256-GCM).
public struct SessionKeys: Sendable {
    public let skReader: SymmetricKey
    public let skDevice: SymmetricKey

    /// `sessionTranscriptBytes` is the tag-24 wrapped transcript (SessionTranscriptBytes).
    public init(eReaderKey: P256.KeyAgreement.PrivateKey, eDeviceKey: P256.KeyAgreement.PublicKey,
                sessionTranscriptBytes: [UInt8]) throws {
        let shared = try eReaderKey.sharedSecretFromKeyAgreement(with: eDeviceKey)
        let salt = Data(SHA256.hash(data: sessionTranscriptBytes))
        skReader = shared.hkdfDerivedSymmetricKey(using: SHA256.self, salt: salt, sharedInfo: Data("SKReader".utf8), outputByteCount: 32)
        skDevice = shared.hkdfDerivedSymmetricKey(using: SHA256.self, salt: salt, sharedInfo: Data("SKDevice".utf8), outputByteCount: 32)
    }
}

/// AES-256-GCM as the session uses it: no AAD, the tag after the ciphertext, IV = 8-byte identifier (reader 0,
/// mdoc 1) followed by a 4-byte big-endian message counter starting at 1.
public enum SessionCipher {
    public enum Sender: UInt64, Sendable {
        case reader = 0
        case mdoc = 1
    }

    public static func nonce(_ sender: Sender, counter: UInt32) -> AES.GCM.Nonce {
        var iv = [UInt8](repeating: 0, count: 12)
        for index in 0..<8 { iv[index] = UInt8(truncatingIfNeeded: sender.rawValue >> (8 * (7 - index))) }
        for index in 0..<4 { iv[8 + index] = UInt8(truncatingIfNeeded: counter >> (8 * (3 - index))) }
        return try! AES.GCM.Nonce(data: iv)  // 12 bytes, always valid
    }

    public static func seal(_ plaintext: [UInt8], key: SymmetricKey, sender: Sender, counter: UInt32) throws -> [UInt8] {
        let box = try AES.GCM.seal(plaintext, using: key, nonce: nonce(sender, counter: counter))
        return Array(box.ciphertext) + Array(box.tag)
    }

    public static func open(_ data: ArraySlice<UInt8>, key: SymmetricKey, sender: Sender, counter: UInt32) throws -> [UInt8] {
        guard data.count >= 16 else { throw CryptoKitError.incorrectParameterSize }
        let box = try AES.GCM.SealedBox(nonce: nonce(sender, counter: counter), ciphertext: data.dropLast(16), tag: data.suffix(16))
        return Array(try AES.GCM.open(box, using: key))
    }
}
