import Crypto
import Encodings
import MDoc
import StrictJSON

/// One OpenID4VP request for mdocs: its parameters (OpenID4VP 1.0 section 5 and Appendix A), signed or not, and the
/// session state its answer is verified against.
public struct OpenID4VPRequest: Sendable {
    /// The DC API protocol identifiers (Appendix A.1).
    public static let signedProtocol = "openid4vp-v1-signed"
    public static let unsignedProtocol = "openid4vp-v1-unsigned"
    /// The COSE algorithms verifierd verifies for issuerAuth and deviceSignature (ES256, ES384, ES512).
    public static let algorithms: [Int64] = [-7, -35, -36]

    public let session: OpenID4VPSession
    /// The request object's parameters.
    public let parameters: JSON
    /// The signed request object, when signed.
    public let signedRequest: String?

    /// A request over the Digital Credentials API for `origin`; signed with `signer` when given, then carrying
    /// `verifierInfo` (attestations about the verifier, such as its registration certificate) when there is any.
    /// `transactionData`, when given, is sent as `transaction_data` (and only then: a request without it has no such
    /// member).
    public init(origin: String, query: DCQLQuery, mode: ResponseMode, signer: RequestObjectSigner?, verifierInfo: [JSON] = [],
                transactionData: TransactionData? = nil) throws {
        precondition(mode != .directPostJWT, "dc_api or dc_api.jwt")
        let session = OpenID4VPSession(flow: .digitalCredentialsAPI, origin: origin, nonce: Self.freshNonce(), mode: mode,
                                       key: mode.encrypted ? ResponseEncryptionKey(kid: Self.freshKeyID()) : nil,
                                       query: query, clientId: signer?.clientId, responseURI: nil, transactionData: transactionData)
        var members = Self.commonParameters(session)
        if let signer {
            members.insert(("client_id", .string(signer.clientId)), at: 0)
            members.append(("expected_origins", .array([.string(origin)])))
            if !verifierInfo.isEmpty { members.append(("verifier_info", .array(verifierInfo))) }
        }
        let parameters = JSON.object(members)
        self.session = session
        self.parameters = parameters
        signedRequest = try signer.map { try $0.sign(parameters) }
    }

    /// A cross-device request (`direct_post.jwt` to `responseURI`), always signed.
    /// `callerSessionId` is kept in the session (never sent) so that a pushed result names the caller's session.
    public init(responseURI: String, query: DCQLQuery, signer: RequestObjectSigner, redirectURI: String? = nil,
                callerSessionId: String? = nil, verifierInfo: [JSON] = [], transactionData: TransactionData? = nil) throws {
        let session = OpenID4VPSession(flow: .crossDevice, origin: nil, nonce: Self.freshNonce(), mode: .directPostJWT,
                                       key: ResponseEncryptionKey(kid: Self.freshKeyID()), query: query,
                                       clientId: signer.clientId, responseURI: responseURI, redirectURI: redirectURI,
                                       callerSessionId: callerSessionId, transactionData: transactionData)
        var members = Self.commonParameters(session)
        members.insert(("client_id", .string(signer.clientId)), at: 0)
        members.append(("response_uri", .string(responseURI)))
        members.append(("aud", .string("https://self-issued.me/v2")))
        if !verifierInfo.isEmpty { members.append(("verifier_info", .array(verifierInfo))) }
        self.session = session
        parameters = .object(members)
        signedRequest = try signer.sign(parameters)
    }

    /// What `navigator.credentials.get({digital: {requests: [request]}})` takes: `{"protocol", "data"}`.
    public var digitalCredentialsRequest: JSON {
        if let signedRequest {
            return .object([("protocol", .string(Self.signedProtocol)), ("data", .object([("request", .string(signedRequest))]))])
        }
        return .object([("protocol", .string(Self.unsignedProtocol)), ("data", parameters)])
    }

    static func commonParameters(_ session: OpenID4VPSession) -> [(String, JSON)] {
        var metadata: [(String, JSON)] = []
        if let key = session.key {
            metadata.append(("jwks", .object([("keys", .array([key.publicJWK]))])))
            metadata.append(("encrypted_response_enc_values_supported", .array(EncryptedAuthorizationResponse.contentEncryptions.map { .string($0) })))
        }
        let algorithms = JSON.array(algorithms.map { .int($0) })
        var formats: [(String, JSON)] = [("mso_mdoc", .object([
            ("issuerauth_alg_values", algorithms), ("deviceauth_alg_values", algorithms),
        ]))]
        if session.query.credentials.contains(where: { $0.format == DCQLQuery.mdocZKFormat }) {
            // The proposal defines no parameters: the systems are in each query's meta.zk_system_type.
            formats.append((DCQLQuery.mdocZKFormat, .object([])))
        }
        if session.query.asksForSDJWTVC {
            // B.3.4: the JWS algorithms verifierd verifies for the issuer-signed JWT and the KB-JWT (HAIP: ES256).
            let es256 = JSON.array([.string("ES256")])
            formats.append(("dc+sd-jwt", .object([("sd-jwt_alg_values", es256), ("kb-jwt_alg_values", es256)])))
        }
        metadata.append(("vp_formats_supported", .object(formats)))
        var parameters: [(String, JSON)] = [
            ("response_type", .string("vp_token")),
            ("response_mode", .string(session.mode.rawValue)),
            ("nonce", .string(session.nonce)),
            ("dcql_query", session.query.json),
        ]
        if let transactionData = session.transactionData {
            parameters.append(("transaction_data", .array(transactionData.strings.map { .string($0) })))
        }
        parameters.append(("client_metadata", .object(metadata)))
        return parameters
    }

    /// 32 random bytes, base64url: 256 bits where the specification asks for at least 128.
    static func freshNonce() -> String {
        return Base64URL.encode(RandomBytes.make(32))
    }

    static func freshKeyID() -> String {
        return Base64URL.encode(RandomBytes.make(12))
    }
}
