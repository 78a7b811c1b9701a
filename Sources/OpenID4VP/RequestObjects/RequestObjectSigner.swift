import Crypto
import Encodings
import Foundation
import ReaderAuthentication
import StrictJSON
import X509

/// Signs request objects (JWS compact, ES256) with the reader key and chain that sign Annex C's readerAuth: header
/// `alg: "ES256"`, `typ: "oauth-authz-req+jwt"`, `x5c` (leaf first, without a self-signed root, as HAIP requires).
/// The client identifier (OpenID4VP 1.0 §5.9.3) is `x509_hash:` and the base64url SHA-256 of the leaf's DER, or
/// `x509_san_dns:` and a dNSName of the leaf's subjectAltName.
public struct RequestObjectSigner: Sendable {
    /// The Client Identifier Prefixes verifierd signs under (both bind the client identifier to the leaf).
    public enum ClientIdPrefix: String, Sendable, CaseIterable {
        case x509Hash = "x509_hash"
        case x509SanDNS = "x509_san_dns"
    }

    /// Why the leaf cannot give a client identifier under a prefix.
    public struct ClientIdProblem: Error, Sendable, Equatable {
        public let detail: String
    }

    public let key: ReaderAuthenticationKey
    public let clientIdPrefix: ClientIdPrefix
    /// `x509_hash:<base64url SHA-256 of the leaf certificate>` or `x509_san_dns:<dNSName>`.
    public let clientId: String
    /// The JOSE header, base64url, the same for every request object.
    private let encodedHeader: String

    /// Derives the client identifier and the header once (at start-up), not per request. With `x509_san_dns`,
    /// `dnsName` must be a dNSName of the leaf's subjectAltName (default: its first one).
    public init(key: ReaderAuthenticationKey, prefix: ClientIdPrefix = .x509Hash, dnsName: String? = nil) throws(ClientIdProblem) {
        self.key = key
        clientIdPrefix = prefix
        switch prefix {
        case .x509Hash:
            guard dnsName == nil else { throw ClientIdProblem(detail: "a DNS name goes with x509_san_dns, not x509_hash") }
            clientId = "x509_hash:" + Base64URL.encode(Array(SHA256.hash(data: key.x5chain[0])))
        case .x509SanDNS:
            let names = Self.dnsNames(key.x5chain[0])
            guard let name = dnsName ?? names.first else {
                throw ClientIdProblem(detail: "the reader certificate has no dNSName in its subjectAltName, which x509_san_dns needs")
            }
            guard names.contains(name) else {
                throw ClientIdProblem(detail: "\"\(name.prefix(253))\" is not a dNSName of the reader certificate (it has: "
                                      + (names.isEmpty ? "none" : names.joined(separator: ", ")) + ")")
            }
            clientId = "x509_san_dns:" + name
        }
        let header: JSON = .object([
            ("alg", .string("ES256")), ("typ", .string("oauth-authz-req+jwt")),
            ("x5c", .array(key.x5chain.map { .string(Data($0).base64EncodedString()) })),
        ])
        encodedHeader = Base64URL.encode(header.serialized())
    }

    /// The dNSNames of a DER certificate's subjectAltName, in order.
    static func dnsNames(_ der: [UInt8]) -> [String] {
        guard let certificate = try? Certificate(derEncoded: der),
              let names = try? certificate.extensions.subjectAlternativeNames else { return [] }
        return names.compactMap { name in
            if case .dnsName(let text) = name { return text }
            return nil
        }
    }

    /// The compact JWS of `payload`.
    public func sign(_ payload: JSON) throws -> String {
        try ES256CompactJWS.sign(encodedHeader: encodedHeader, payload: payload.serialized(), key: key.privateKey)
    }
}
