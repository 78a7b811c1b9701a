import Crypto
import Encodings
import StrictJSON

/// A P-256 public key given as a JWK (RFC 7517, RFC 7518 6.2): `kty` `EC`, `crv` `P-256`, `x` and `y` of 32 bytes
/// each in base64url; other members (`kid`, `use`, …) are tolerated. A private member (`d`) is refused: a holder
/// never sends its private key, and a credential that carries one is not to be trusted with anything.
public enum P256PublicJWK {
    public static func key(_ jwk: JSON) -> P256.Signing.PublicKey? {
        guard case .object = jwk, jwk[member: "kty"]?.stringValue == "EC", jwk[member: "crv"]?.stringValue == "P-256",
              jwk[member: "d"] == nil,
              let x = jwk[member: "x"]?.stringValue.flatMap(Base64URL.decodeBytes), x.count == 32,
              let y = jwk[member: "y"]?.stringValue.flatMap(Base64URL.decodeBytes), y.count == 32
        else { return nil }
        return try? P256.Signing.PublicKey(rawRepresentation: x + y)
    }
}
