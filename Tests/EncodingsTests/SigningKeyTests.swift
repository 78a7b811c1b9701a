import Crypto
import Encodings
import Foundation
import Testing

/// The one P-256 private key reader and the one ES256 compact JWS signer.
struct SigningKeyTests {
    @Test func readsPKCS8AndSEC1() throws {
        let key = P256.Signing.PrivateKey()
        #expect(try P256PrivateKeyPEM.key(from: key.pemRepresentation).rawRepresentation == key.rawRepresentation)
        // An EC PARAMETERS block before the key is skipped.
        let sec1 = "-----BEGIN EC PARAMETERS-----\nBggqhkjOPQMBBw==\n-----END EC PARAMETERS-----\n"
            + "-----BEGIN EC PRIVATE KEY-----\n" + Data(key.derRepresentation).base64EncodedString() + "\n-----END EC PRIVATE KEY-----\n"
        #expect(try P256PrivateKeyPEM.key(from: sec1).rawRepresentation == key.rawRepresentation)
    }

    @Test func refusalsNameTheProblemNotTheInput() {
        #expect(throws: P256PrivateKeyPEM.Problem.noKeyBlock) {
            try P256PrivateKeyPEM.key(from: "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n")
        }
        #expect(throws: P256PrivateKeyPEM.Problem.encrypted) {
            try P256PrivateKeyPEM.key(from: "-----BEGIN ENCRYPTED PRIVATE KEY-----\nAAAA\n-----END ENCRYPTED PRIVATE KEY-----\n")
        }
        #expect(throws: P256PrivateKeyPEM.Problem.notP256(label: "PRIVATE KEY")) {
            try P256PrivateKeyPEM.key(from: P384.Signing.PrivateKey().pemRepresentation)
        }
        do {
            _ = try P256PrivateKeyPEM.key(from: "-----BEGIN PRIVATE KEY-----\nnot base64 at all!\n-----END PRIVATE KEY-----\n")
            Issue.record("accepted")
        } catch {
            guard case .notPEM(let reason) = error else { Issue.record("\(error)"); return }
            #expect(!reason.contains("not base64 at all"))
        }
    }

    @Test func signsACompactJWSVerifiableWithTheRawSignature() throws {
        let key = P256.Signing.PrivateKey()
        let header = Base64URL.encode(Array(#"{"alg":"ES256"}"#.utf8))
        let jws = try ES256CompactJWS.sign(encodedHeader: header, payload: Array(#"{"a":1}"#.utf8), key: key)
        let parts = jws.split(separator: ".")
        #expect(parts.count == 3 && parts[0] == Substring(header))
        #expect(Base64URL.decodeBytes(String(parts[1])) == Array(#"{"a":1}"#.utf8))
        let signature = try #require(Base64URL.decodeBytes(String(parts[2])))
        #expect(signature.count == 64, "r || s, not DER")
        let parsed = try P256.Signing.ECDSASignature(rawRepresentation: signature)
        #expect(key.publicKey.isValidSignature(parsed, for: Array("\(parts[0]).\(parts[1])".utf8)))
        #expect(!key.publicKey.isValidSignature(parsed, for: Array("\(parts[0]).e30".utf8)))
    }
}
