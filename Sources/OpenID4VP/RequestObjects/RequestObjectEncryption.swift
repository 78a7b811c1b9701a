import Crypto
import Encodings
import StrictJSON

/// A signed request object encrypted to a key the wallet gave in `wallet_metadata.jwks` (OpenID4VP 1.0 §5.10.1, RFC
/// 9101 §4: signed, then encrypted): a compact JWE, `alg` ECDH-ES (direct key agreement, the only one verifierd
/// uses, as for answers) with a fresh ephemeral key, `enc` A128GCM or A256GCM, `cty` `oauth-authz-req+jwt`.
enum RequestObjectEncryption {
    /// The first key of `keys` this can encrypt to: EC P-256, `use` absent or `enc`, `alg` absent or ECDH-ES.
    static func recipient(in keys: [JSON]) -> (key: P256.KeyAgreement.PublicKey, kid: String?)? {
        for jwk in keys {
            guard jwk[member: "kty"]?.stringValue == "EC", jwk[member: "crv"]?.stringValue == "P-256",
                  jwk[member: "use"].map({ $0.stringValue == "enc" }) ?? true,
                  jwk[member: "alg"].map({ $0.stringValue == "ECDH-ES" }) ?? true,
                  jwk[member: "d"] == nil,
                  let x = jwk[member: "x"]?.stringValue.flatMap(Base64URL.decodeBytes), x.count == 32,
                  let y = jwk[member: "y"]?.stringValue.flatMap(Base64URL.decodeBytes), y.count == 32,
                  let key = try? P256.KeyAgreement.PublicKey(x963Representation: [0x04] + x + y)
            else { continue }
            return (key, jwk[member: "kid"]?.stringValue)
        }
        return nil
    }

    /// The compact JWE of `signed` for `recipient` with `enc`.
    static func seal(_ signed: String, to recipient: P256.KeyAgreement.PublicKey, kid: String?, enc: String) throws -> String {
        let ephemeral = P256.KeyAgreement.PrivateKey()
        let point = Array(ephemeral.publicKey.rawRepresentation)
        let header = JSON.object([
            ("alg", .string("ECDH-ES")), ("enc", .string(enc)),
            ("epk", .object([("kty", .string("EC")), ("crv", .string("P-256")),
                             ("x", .string(Base64URL.encode(point[0..<32]))), ("y", .string(Base64URL.encode(point[32..<64])))])),
            ("kid", kid.map { .string($0) }), ("cty", .string("oauth-authz-req+jwt")),
        ])
        let protectedSegment = Base64URL.encode(header.serialized())
        let shared = try ephemeral.sharedSecretFromKeyAgreement(with: recipient).withUnsafeBytes { Array($0) }
        let contentKey = ConcatKDF.derive(sharedSecret: shared, algorithm: enc, partyU: [], partyV: [],
                                          keyBits: enc == "A128GCM" ? 128 : 256)
        let box = try AES.GCM.seal(Array(signed.utf8), using: SymmetricKey(data: contentKey), nonce: AES.GCM.Nonce(),
                                   authenticating: Array(protectedSegment.utf8))
        return [protectedSegment, "", Base64URL.encode(Array(box.nonce)), Base64URL.encode(Array(box.ciphertext)),
                Base64URL.encode(Array(box.tag))].joined(separator: ".")
    }
}
