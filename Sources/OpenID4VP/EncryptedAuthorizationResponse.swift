import Crypto
import Encodings
import Foundation
import MDoc
import StrictJSON

/// An encrypted OpenID4VP answer (OpenID4VP 1.0 8.3): a compact JWE with `alg: "ECDH-ES"` (direct key agreement) to
/// the session's key, `enc` A128GCM or A256GCM, and a JSON object as plaintext.
///
/// Refused before any cryptography: another algorithm (`none`, `dir`, key wrapping, RSA) or encryption, a `zip` or
/// `crit` member, a `kid` other than the session's, an `epk` that is not a P-256 point, a non-empty encrypted key,
/// an IV other than 96 bits or a tag other than 128 bits. `apu` and `apv` go into the key derivation as sent.
public enum EncryptedAuthorizationResponse {
    /// The `enc` values offered in every request.
    public static let contentEncryptions = ["A128GCM", "A256GCM"]
    static let maximumHeaderBytes = 4_096

    struct Header: Decodable {
        let alg: String
        let enc: String?
        let kid: String?
        let epk: EphemeralKey?
        let apu: String?
        let apv: String?
        let zip: String?
        let crit: [String]?

        struct EphemeralKey: Decodable {
            let kty: String?
            let crv: String?
            let x: String?
            let y: String?
        }
    }

    /// The plaintext of `compact`, decrypted with `key`.
    public static func open(_ compact: String, key: ResponseEncryptionKey) throws(ResponseFailure) -> [UInt8] {
        let parts = compact.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 5 else {
            throw ResponseFailure(.envelopeMalformed, "the response is not a compact JWE (five base64url parts)")
        }
        let protectedSegment = String(parts[0])
        guard protectedSegment.utf8.count <= maximumHeaderBytes * 2,
              let headerBytes = Base64URL.decodeBytes(protectedSegment), headerBytes.count <= maximumHeaderBytes
        else { throw ResponseFailure(.envelopeMalformed, "the JWE protected header is not base64url of at most 4 KiB") }
        if JSONSyntaxScan.check(headerBytes) != nil {
            throw ResponseFailure(.envelopeMalformed, "the JWE protected header is not one JSON object without repeated names")
        }
        let header: Header
        do {
            header = try JSONDecoder().decode(Header.self, from: Data(headerBytes))
        } catch {
            throw ResponseFailure(.envelopeMalformed, "the JWE protected header has no alg or a member of the wrong type")
        }
        guard header.alg == "ECDH-ES" else {
            throw ResponseFailure(.envelopeUnsupported, "JWE alg \"\(header.alg)\" is not ECDH-ES, the algorithm of the session's key")
        }
        guard let enc = header.enc, contentEncryptions.contains(enc) else {
            throw ResponseFailure(.envelopeUnsupported, "JWE enc \"\(header.enc ?? "")\" is not one of A128GCM, A256GCM")
        }
        guard header.zip == nil, header.crit == nil else {
            throw ResponseFailure(.envelopeUnsupported, "the JWE uses zip or crit, which this verifier does not accept")
        }
        // The JWE names the key's kid; only a key without one (an offline key from a JWK lacking it) accepts none.
        guard header.kid.map({ $0 == key.kid }) ?? key.kid.isEmpty else {
            throw ResponseFailure(.recipientKeyUnknown, "the JWE kid does not name this session's encryption key")
        }
        guard let epk = header.epk, epk.kty == "EC", epk.crv == "P-256",
              let x = epk.x.flatMap(Base64URL.decodeBytes), let y = epk.y.flatMap(Base64URL.decodeBytes),
              x.count == 32, y.count == 32,
              let ephemeral = try? P256.KeyAgreement.PublicKey(x963Representation: [0x04] + x + y)
        else { throw ResponseFailure(.envelopeMalformed, "the JWE epk is not a point on P-256") }
        guard parts[1].isEmpty else {
            throw ResponseFailure(.envelopeMalformed, "ECDH-ES (direct key agreement) has an empty JWE encrypted key")
        }
        guard let iv = Base64URL.decodeBytes(String(parts[2])), iv.count == 12,
              let ciphertext = Base64URL.decodeBytes(String(parts[3])),
              let tag = Base64URL.decodeBytes(String(parts[4])), tag.count == 16
        else { throw ResponseFailure(.envelopeMalformed, "the JWE IV, ciphertext or tag is not base64url of the right length") }
        let partyU = try header.apu.map { (text) throws(ResponseFailure) in try decodeParty(text, "apu") } ?? []
        let partyV = try header.apv.map { (text) throws(ResponseFailure) in try decodeParty(text, "apv") } ?? []
        let shared: [UInt8]
        do {
            shared = try key.privateKey.sharedSecretFromKeyAgreement(with: ephemeral).withUnsafeBytes { Array($0) }
        } catch {
            throw ResponseFailure(.decryptionFailed, "no shared secret with the JWE epk")
        }
        let keyBits = enc == "A128GCM" ? 128 : 256
        let contentKey = ConcatKDF.derive(sharedSecret: shared, algorithm: enc, partyU: partyU, partyV: partyV, keyBits: keyBits)
        do {
            let box = try AES.GCM.SealedBox(nonce: AES.GCM.Nonce(data: iv), ciphertext: ciphertext, tag: tag)
            return Array(try AES.GCM.open(box, using: SymmetricKey(data: contentKey), authenticating: Array(protectedSegment.utf8)))
        } catch {
            throw ResponseFailure(.decryptionFailed, "the JWE does not decrypt with this session's key")
        }
    }

    private static func decodeParty(_ text: String, _ name: String) throws(ResponseFailure) -> [UInt8] {
        guard text.utf8.count <= 1_024, let bytes = Base64URL.decodeBytes(text) else {
            throw ResponseFailure(.envelopeMalformed, "the JWE \(name) is not base64url of at most 768 bytes")
        }
        return bytes
    }
}
