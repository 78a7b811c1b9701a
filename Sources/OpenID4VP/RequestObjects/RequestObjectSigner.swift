import Crypto
import Encodings
import Foundation
import ReaderAuthentication
import StrictJSON

/// Signs request objects (JWS compact, ES256) with the reader key and chain that sign Annex C's readerAuth: header
/// `alg: "ES256"`, `typ: "oauth-authz-req+jwt"`, `x5c` (leaf first, without a self-signed root, as HAIP requires).
/// The client identifier is `x509_hash:` and the base64url SHA-256 of the leaf's DER (OpenID4VP 1.0 5.9.3).
public struct RequestObjectSigner: Sendable {
    public let key: ReaderAuthenticationKey
    /// `x509_hash:<base64url SHA-256 of the leaf certificate>`.
    public let clientId: String
    /// The JOSE header, base64url, the same for every request object.
    private let encodedHeader: String

    /// Derives the client identifier and the header once (at start-up), not per request.
    public init(key: ReaderAuthenticationKey) {
        self.key = key
        clientId = "x509_hash:" + Base64URL.encode(Array(SHA256.hash(data: key.x5chain[0])))
        let header: JSON = .object([
            ("alg", .string("ES256")), ("typ", .string("oauth-authz-req+jwt")),
            ("x5c", .array(key.x5chain.map { .string(Data($0).base64EncodedString()) })),
        ])
        encodedHeader = Base64URL.encode(header.serialized())
    }

    /// The compact JWS of `payload`.
    public func sign(_ payload: JSON) throws -> String {
        try ES256CompactJWS.sign(encodedHeader: encodedHeader, payload: payload.serialized(), key: key.privateKey)
    }
}
