import SDJWT
import StrictJSON

/// JWT VC Issuer Metadata (SD-JWT VC draft -19 section 4): where an issuer's metadata lives and what a valid document is. No
/// I/O here: a resolver fetches the bytes through the service's outbound fetcher and hands them to these rules.
public enum JWTVCIssuerMetadata {
    /// The largest metadata document or key set read.
    public static let maximumBytes = 64 << 10
    /// The most keys a set may hold.
    public static let maximumKeys = 16
    static let jsonLimits = JSONParser.Limits(maximumDepth: 16, maximumValues: 4_096)

    /// Why a document or key set is refused.
    public struct Invalid: Error, Sendable {
        public let detail: String
        init(_ detail: String) { self.detail = detail }
    }

    /// The metadata URL of `iss` (section 4.1): `/.well-known/jwt-vc-issuer` inserted between the host (and port) and
    /// the path, a trailing `/` dropped. Nil unless `iss` is an http(s) URL with a host and no user information,
    /// query or fragment.
    public static func url(for iss: String) -> String? {
        guard !iss.contains("?"), !iss.contains("#") else { return nil }
        let scheme: String
        if iss.hasPrefix("https://") { scheme = "https://" } else if iss.hasPrefix("http://") { scheme = "http://" } else { return nil }
        let rest = iss.dropFirst(scheme.count)
        let authority = rest.prefix { $0 != "/" }
        guard !authority.isEmpty, !authority.contains("@") else { return nil }
        var path = rest.dropFirst(authority.count)
        if path.hasSuffix("/") { path = path.dropLast() }
        return scheme + authority + "/.well-known/jwt-vc-issuer" + path
    }

    /// What a metadata document says about the keys: the set itself, or where to fetch it.
    public enum KeySource: Sendable {
        case jwks(SDJWTVCIssuerKeys)
        case jwksURI(String)
    }

    /// Reads a metadata document (strict JSON object): `issuer` must equal `iss` exactly (section 4.3) and exactly one
    /// of `jwks` and `jwks_uri` is present (section 4.2).
    public static func document(_ bytes: [UInt8], iss: String, source: String) throws(Invalid) -> KeySource {
        let json = try object(bytes, "the metadata")
        guard let issuer = json[member: "issuer"]?.stringValue else { throw Invalid("the metadata has no issuer string") }
        guard issuer.utf8.elementsEqual(iss.utf8) else { throw Invalid("the metadata's issuer \"\(issuer.prefix(128))\" is not the credential's iss") }
        switch (json[member: "jwks"], json[member: "jwks_uri"]) {
        case (let jwks?, nil):
            return .jwks(try keySet(jwks, issuer: issuer, source: source))
        case (nil, let uri?):
            guard let text = uri.stringValue, text.hasPrefix("https://") || text.hasPrefix("http://") else {
                throw Invalid("jwks_uri is not an http(s) URL")
            }
            return .jwksURI(text)
        case (nil, nil): throw Invalid("the metadata has neither jwks nor jwks_uri")
        case (_?, _?): throw Invalid("the metadata has both jwks and jwks_uri; exactly one is allowed")
        }
    }

    /// Reads the key set a `jwks_uri` answered (RFC 7517 section 5).
    public static func keySet(_ bytes: [UInt8], issuer: String, source: String) throws(Invalid) -> SDJWTVCIssuerKeys {
        try keySet(try object(bytes, "the JWKS"), issuer: issuer, source: source)
    }

    /// The EC P-256 signing keys of a JWK Set: keys of another type, or whose `use` is not `sig` or `alg` not `ES256`,
    /// are skipped; a key
    /// with a private member, two keys with one `kid`, more than ``maximumKeys`` keys or no usable key refuse the set.
    static func keySet(_ jwks: JSON, issuer: String, source: String) throws(Invalid) -> SDJWTVCIssuerKeys {
        guard case .array(let entries)? = jwks[member: "keys"] else { throw Invalid("the JWKS has no keys array") }
        guard entries.count <= maximumKeys else { throw Invalid("the JWKS holds \(entries.count) keys; at most \(maximumKeys)") }
        var keys: [SDJWTVCIssuerKeys.Key] = []
        for entry in entries {
            guard case .object = entry else { throw Invalid("a JWKS entry is not an object") }
            for member in ["d", "p", "q", "dp", "dq", "qi", "oth", "k"] where entry[member: member] != nil {
                throw Invalid("a JWKS entry holds the private member \"\(member)\"")
            }
            let kid: String?
            switch entry[member: "kid"] {
            case nil: kid = nil
            case .string(let text)?: kid = text
            default: throw Invalid("a kid is not a string")
            }
            if let use = entry[member: "use"], use.stringValue != "sig" { continue }
            if let alg = entry[member: "alg"], alg.stringValue != "ES256" { continue }
            guard entry[member: "kty"]?.stringValue == "EC", entry[member: "crv"]?.stringValue == "P-256" else { continue }
            guard let key = P256PublicJWK.key(entry) else { throw Invalid("an EC P-256 key of the JWKS is malformed") }
            if let kid, keys.contains(where: { $0.id?.utf8.elementsEqual(kid.utf8) == true }) { throw Invalid("two keys share kid \"\(kid.prefix(64))\"") }
            keys.append(.init(id: kid, key: key))
        }
        guard !keys.isEmpty else { throw Invalid("the JWKS holds no EC P-256 signing key") }
        return SDJWTVCIssuerKeys(issuer: issuer, keys: keys, source: source)
    }

    static func object(_ bytes: [UInt8], _ what: String) throws(Invalid) -> JSON {
        guard bytes.count <= maximumBytes else { throw Invalid("\(what) is over \(maximumBytes) bytes") }
        let value: JSON
        do { value = try JSONParser.parse(bytes, limits: jsonLimits) } catch {
            throw Invalid("\(what) is not strict JSON: \(error)")
        }
        guard case .object = value else { throw Invalid("\(what) is not a JSON object") }
        return value
    }
}
