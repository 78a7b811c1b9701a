import Crypto

/// The signing keys an issuer publishes in its JWT VC Issuer Metadata (`jwks`, or the set `jwks_uri` names), read
/// and checked by ``JWTVCIssuerMetadata``: EC P-256 public keys with their `kid`.
public struct SDJWTVCIssuerKeys: Sendable {
    public struct Key: Sendable {
        public let id: String?
        public let key: P256.Signing.PublicKey
    }

    /// The metadata's `issuer`, equal to the credential's `iss`.
    public let issuer: String
    public let keys: [Key]
    /// Where the keys were read (the metadata URL, and the `jwks_uri` when there is one), for the report.
    public let source: String

    public init(issuer: String, keys: [Key], source: String) {
        self.issuer = issuer
        self.keys = keys
        self.source = source
    }

    /// The key a JWS names by `kid`: the one key with that `kid`; without a `kid`, the only key of the set. Nil when
    /// no key, or more than one, could be meant (the reason is for the report).
    public func key(for kid: String?) -> Result<Key, KeyNotFound> {
        if let kid {
            let matching = keys.filter { $0.id?.utf8.elementsEqual(kid.utf8) == true }
            guard matching.count == 1 else {
                return .failure(KeyNotFound(detail: matching.isEmpty ? "no key with kid \"\(kid.prefix(64))\" in the issuer's JWKS"
                                            : "\(matching.count) keys share kid \"\(kid.prefix(64))\""))
            }
            return .success(matching[0])
        }
        guard keys.count == 1 else {
            return .failure(KeyNotFound(detail: "the JWS has no kid and the issuer publishes \(keys.count) keys"))
        }
        return .success(keys[0])
    }

    public struct KeyNotFound: Error, Sendable {
        public let detail: String
    }
}

/// What looking up a listed issuer's keys gave the verifier: the keys, or why there are none.
public enum SDJWTVCIssuerKeyLookup: Sendable {
    case keys(SDJWTVCIssuerKeys)
    /// The metadata (or its `jwks_uri`) could not be fetched.
    case unavailable(String)
    /// The metadata (or its key set) was fetched but breaks a rule.
    case invalid(String)
}
