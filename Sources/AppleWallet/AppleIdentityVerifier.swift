import CBOR
import Crypto
import Foundation
import HPKEKeys
import MDoc
import TrustStore

/// Decrypts and verifies the identity response of Apple's "Verify with Wallet".
///
/// Steps, each with its own code on failure: parse the envelope (`ENVELOPE_MALFORMED`, `ENVELOPE_UNSUPPORTED`),
/// pick the key by `pkRHash` (`RECIPIENT_KEY_UNKNOWN`), rebuild the transcript and compare `infoHash`
/// (`INFO_HASH_MISMATCH`), HPKE-open (`DECRYPTION_FAILED`), read `{"identity": DeviceResponse}`
/// (`DEVICE_RESPONSE_MALFORMED`), then verify the DeviceResponse with the same transcript.
public struct AppleIdentityVerifier: Sendable {
    /// DHKEM(P-256, HKDF-SHA256), HKDF-SHA256, AES-128-GCM: built explicitly, the predefined P-256 suite is AES-256.
    public static let ciphersuite = HPKE.Ciphersuite(kem: .P256_HKDF_SHA256, kdf: .HKDF_SHA256, aead: .AES_GCM_128)

    public let keys: [MerchantEncryptionKey]

    public init(keys: [MerchantEncryptionKey]) {
        self.keys = keys
    }

    /// The one call: envelope bytes and the app's nonce, merchant and team IDs in; a report out. Envelope-level
    /// failures appear as the report's `failureCode`.
    public func verify(envelope: [UInt8], nonce: [UInt8], merchantId: String, teamId: String,
                       trust: TrustSnapshot, options: VerificationOptions) -> VerificationReport
    {
        do {
            let opened = try open(envelope: envelope, nonce: nonce, merchantId: merchantId, teamId: teamId)
            return MDocVerifier(trust: trust).verify(
                opened.deviceResponse, sessionTranscript: opened.transcript.bytes, options: options)
        } catch {
            return .failure(error.code, error.detail)
        }
    }

    /// The same with the DeviceResponse verified by `check` (revocation included, when the caller's check resolves
    /// it); also says which merchant key opened the envelope (nil when none did).
    public func verify(envelope: [UInt8], nonce: [UInt8], merchantId: String, teamId: String,
                       check: DeviceResponseCheck) async -> (report: VerificationReport, pkRHash: [UInt8]?)
    {
        let opened: Opened
        do {
            opened = try open(envelope: envelope, nonce: nonce, merchantId: merchantId, teamId: teamId)
        } catch {
            return (.failure(error.code, error.detail), nil)
        }
        return (await check(opened.deviceResponse, opened.transcript.bytes, nil), opened.pkRHash)
    }

    /// What decryption yields: the transcript used and the parsed DeviceResponse.
    public struct Opened: Sendable {
        public let transcript: AppleSessionTranscript
        public let plaintext: [UInt8]
        public let deviceResponse: DeviceResponse
        /// The pkRHash of the merchant key that opened the envelope.
        public let pkRHash: [UInt8]
    }

    /// Everything up to and including parsing the plaintext, without verifying the document.
    public func open(envelope bytes: [UInt8], nonce: [UInt8], merchantId: String, teamId: String)
        throws(AppleWalletError) -> Opened
    {
        let envelope = try AppleHPKEEnvelope(bytes: bytes)
        guard let key = keys.first(where: { $0.pkRHash == envelope.pkRHash }) else {
            throw AppleWalletError(.recipientKeyUnknown,
                                   "no configured merchant encryption key has pkRHash \(envelope.pkRHash.hexString)")
        }
        let transcript = try AppleSessionTranscript(nonce: nonce, merchantId: merchantId, teamId: teamId,
                                                    pkRHash: envelope.pkRHash)
        guard transcript.infoHash == envelope.infoHash else {
            throw AppleWalletError(.infoHashMismatch,
                                   "the envelope was made for a different SessionTranscript: the nonce, merchant ID or "
                                   + "team ID differs from what the app used (expected infoHash "
                                   + "\(envelope.infoHash.hexString), rebuilt \(transcript.infoHash.hexString))")
        }
        let plaintext: [UInt8]
        do {
            var recipient = try HPKE.Recipient(privateKey: key.hpkeKey, ciphersuite: Self.ciphersuite,
                                               info: Data(transcript.bytes), encapsulatedKey: Data(envelope.pkEm))
            plaintext = Array(try recipient.open(envelope.data))
        } catch {
            throw AppleWalletError(.decryptionFailed, "the envelope could not be decrypted")
        }
        return Opened(transcript: transcript, plaintext: plaintext, deviceResponse: try Self.identity(plaintext),
                      pkRHash: key.pkRHash)
    }

    /// Reads `{"identity": DeviceResponse}` strictly.
    static func identity(_ plaintext: [UInt8]) throws(AppleWalletError) -> DeviceResponse {
        let decoder = CBORDecoder(limits: DeviceResponse.decodingLimits)
        let topics: CBORItem
        do {
            topics = try decoder.decode(plaintext)
        } catch {
            throw AppleWalletError(.deviceResponseMalformed, "the plaintext is not one CBOR item: \(error)")
        }
        guard let pairs = topics.mapValue, pairs.count == 1, pairs[0].key.textValue == "identity" else {
            throw AppleWalletError(.deviceResponseMalformed, "the plaintext is not {\"identity\": DeviceResponse}")
        }
        do {
            return try DeviceResponse(item: pairs[0].value, decoder: decoder)
        } catch {
            throw AppleWalletError(error.code, error.description)
        }
    }
}
