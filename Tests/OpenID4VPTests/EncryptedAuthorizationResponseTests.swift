import Crypto
import Encodings
import Foundation
import Testing
@testable import OpenID4VP

/// ECDH-ES JWE answers: the specification's own example (OpenID4VP 1.0 8.3), RFC 7518 Appendix C's key derivation,
/// and every refusal before and after the cryptography.
struct EncryptedResponseTests {
    /// OpenID4VP 1.0 section 8.3: the verifier's key `ac` and the wallet's JWE.
    static let specKey = ResponseEncryptionKey(
        privateKey: try! P256.KeyAgreement.PrivateKey(rawRepresentation: Base64URL.decodeBytes("Et-3ce0omz8_TuZ96Df9lp0GAaaDoUnDe6X-CRO7Aww")!),
        kid: "ac")
    static let specJWE = "eyJhbGciOiJFQ0RILUVTIiwiZW5jIjoiQTEyOEdDTSIsImtpZCI6ImFjIiwiZXBrIjp7Imt0eSI6IkVDIiwieCI6Im5ubVZwbTNWM2piaGNhZlFhUkJrU1ZOSGx3Wkh3dC05ck9wSnVmeVlJdWsiLCJ5IjoicjRmakRxd0p5czlxVU9QLV9iM21SNVNaRy0tQ3dPMm1pYzVWU05UWU45ZyIsImNydiI6IlAtMjU2In19..uAYcHRUSSn2X0WPX.yVzlGSYG4qbg0bq18JcUiDRw56yVnbKR8E7S7YlEtzT00RqE3Pw5oTpUG3hdLN4taHZ9gC1kwak8JOnJgQ.1wR024_3-qtAlx1oFIUpQQ"

    @Test func theSpecificationsExampleOpens() throws {
        let plaintext = try EncryptedAuthorizationResponse.open(Self.specJWE, key: Self.specKey)
        let token = try VPToken.fromDecryptedResponse(plaintext)
        #expect(token.presentations["example_credential_id"]?.count == 1)
    }

    /// RFC 7518 Appendix C: Z, "A128GCM", apu "Alice", apv "Bob" give the published content key.
    @Test func concatKDFMatchesRFC7518AppendixC() {
        let z: [UInt8] = [158, 86, 217, 29, 129, 113, 53, 211, 114, 131, 66, 131, 191, 132, 38, 156, 251, 49, 110, 163, 218,
                          128, 106, 72, 246, 218, 167, 121, 140, 254, 144, 196]
        let key = ConcatKDF.derive(sharedSecret: z, algorithm: "A128GCM", partyU: Array("Alice".utf8), partyV: Array("Bob".utf8), keyBits: 128)
        #expect(key == [86, 170, 141, 234, 248, 35, 109, 32, 92, 34, 40, 205, 113, 167, 16, 26])
    }

    func header(_ json: String) -> String { Base64URL.encode(Array(json.utf8)) }

    func refusal(_ compact: String, key: ResponseEncryptionKey = specKey) -> String? {
        do {
            _ = try EncryptedAuthorizationResponse.open(compact, key: key)
            return nil
        } catch {
            return error.code.rawValue
        }
    }

    @Test func refusals() {
        let parts = Self.specJWE.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let rest = "." + parts[1...].joined(separator: ".")
        #expect(refusal("abc") == "ENVELOPE_MALFORMED")
        #expect(refusal(header(#"{"alg":"none"}"#) + rest) == "ENVELOPE_UNSUPPORTED")
        #expect(refusal(header(#"{"alg":"dir","enc":"A128GCM"}"#) + rest) == "ENVELOPE_UNSUPPORTED")
        #expect(refusal(header(#"{"alg":"RSA-OAEP-256","enc":"A128GCM"}"#) + rest) == "ENVELOPE_UNSUPPORTED")
        #expect(refusal(header(#"{"alg":"ECDH-ES","enc":"A128CBC-HS256","kid":"ac"}"#) + rest) == "ENVELOPE_UNSUPPORTED")
        #expect(refusal(header(#"{"alg":"ECDH-ES","alg":"ECDH-ES","enc":"A128GCM"}"#) + rest) == "ENVELOPE_MALFORMED")
        // Another session's key, or none named.
        #expect(refusal(Self.specJWE, key: ResponseEncryptionKey(kid: "other")) == "RECIPIENT_KEY_UNKNOWN")
        #expect(refusal(header(#"{"alg":"ECDH-ES","enc":"A128GCM"}"#) + rest) == "RECIPIENT_KEY_UNKNOWN")
        // A key without a kid (offline) accepts a JWE naming none, and refuses one naming another.
        #expect(refusal(header(#"{"alg":"ECDH-ES","enc":"A128GCM"}"#) + rest, key: ResponseEncryptionKey(kid: "")) == "ENVELOPE_MALFORMED")
        #expect(refusal(Self.specJWE, key: ResponseEncryptionKey(kid: "")) == "RECIPIENT_KEY_UNKNOWN")
        // The right kid on another key: the tag does not verify.
        #expect(refusal(Self.specJWE, key: ResponseEncryptionKey(kid: "ac")) == "DECRYPTION_FAILED")
        // An epk off the curve.
        let offCurve = #"{"alg":"ECDH-ES","enc":"A128GCM","kid":"ac","epk":{"kty":"EC","crv":"P-256","x":"\#(Base64URL.encode([UInt8](repeating: 1, count: 32)))","y":"\#(Base64URL.encode([UInt8](repeating: 2, count: 32)))"}}"#
        #expect(refusal(header(offCurve) + rest) == "ENVELOPE_MALFORMED")
        // A tampered tag, and a non-empty encrypted key.
        #expect(refusal(parts[0...3].joined(separator: ".") + ".AAAAAAAAAAAAAAAAAAAAAA") == "DECRYPTION_FAILED")
        #expect(refusal(parts[0] + ".AAAA." + parts[2...].joined(separator: ".")) == "ENVELOPE_MALFORMED")
    }
}
