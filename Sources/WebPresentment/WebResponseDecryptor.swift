import CBOR
import Crypto
import Foundation
import HPKEKeys
import MDoc

/// Opens an Annex C answer: HPKE base mode, DHKEM(P-256, HKDF-SHA256), HKDF-SHA256, AES-128-GCM, `info` = the
/// SessionTranscript bytes, empty `aad`. The plaintext is a bare DeviceResponse (no `{"identity": ...}` wrapper).
public enum WebResponseDecryptor {
    public static let ciphersuite = HPKE.Ciphersuite(kem: .P256_HKDF_SHA256, kdf: .HKDF_SHA256, aead: .AES_GCM_128)

    /// Decrypts and parses. A wrong key, wrong transcript (origin, encryptionInfo) or altered ciphertext all end in
    /// `DECRYPTION_FAILED`: AES-GCM cannot tell them apart, and saying more would help nobody but an attacker.
    public static func open(_ response: DCAPIEncryptedResponse, recipientKey: P256.KeyAgreement.PrivateKey,
                            transcript: DCAPISessionTranscript) throws(WebPresentmentError) -> DeviceResponse
    {
        let plaintext = try decrypt(response, recipientKey: recipientKey, transcript: transcript)
        do {
            return try DeviceResponse(bytes: plaintext)
        } catch {
            throw WebPresentmentError(error.code, error.description)
        }
    }

    /// The plaintext bytes only.
    public static func decrypt(_ response: DCAPIEncryptedResponse, recipientKey: P256.KeyAgreement.PrivateKey,
                               transcript: DCAPISessionTranscript) throws(WebPresentmentError) -> [UInt8]
    {
        do {
            var recipient = try HPKE.Recipient(privateKey: HPKERecipientKey(recipientKey), ciphersuite: ciphersuite,
                                               info: Data(transcript.bytes), encapsulatedKey: Data(response.enc))
            return Array(try recipient.open(response.cipherText, authenticating: Data()))
        } catch {
            throw WebPresentmentError(.decryptionFailed,
                                      "the response could not be decrypted with this session's key and transcript")
        }
    }
}
