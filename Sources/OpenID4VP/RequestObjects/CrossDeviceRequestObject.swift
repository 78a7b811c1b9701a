import Crypto
import Encodings
import Foundation
import SessionStore
import StrictJSON

/// A cross-device request object as it is kept and served (OpenID4VP 1.0 §5.10): the claims it carries, signed for
/// every fetch, and the response id of the session it asks the wallet to answer. The request URI is not single use:
/// a wallet may fetch it again (the conformance suite fetches twice), by GET or by POST, at most ``maximumFetches``
/// times, while its session waits for an answer; what stays single use is the answer.
public struct CrossDeviceRequestObject: Sendable {
    /// The fetches one request URI serves over its life, every replica's together.
    public static let maximumFetches = 16
    static let payloadVersion: Int64 = 1
    static let payloadMembers: Set<String> = ["claims", "responseId"]

    /// The request object's claims, as signed on a GET.
    public let claims: JSON
    /// The id of the cross-device session (and its response URI) the request object belongs to.
    public let responseId: String

    public init(claims: JSON, responseId: String) {
        self.claims = claims
        self.responseId = responseId
    }

    /// The record kept under the request URI's id.
    public func record(id: String, createdAt: Date, expiresAt: Date) -> SessionRecord {
        SessionRecord(id: id, kind: .oid4vpRequestObject, createdAt: createdAt, expiresAt: expiresAt,
                      payload: SecretBytes(StoredPayload.encode(version: Self.payloadVersion, [
                          ("claims", .text(claims.text)), ("responseId", .text(responseId)),
                      ])))
    }

    /// Reads a stored record back; nil when it is not one this type wrote.
    public init?(record: SessionRecord) {
        guard record.kind == .oid4vpRequestObject,
              let payload = record.payload.withUnsafeBytes({ StoredPayload(Array($0), version: Self.payloadVersion, members: Self.payloadMembers) }),
              let text = payload["claims"]?.textValue, let responseId = payload["responseId"]?.textValue,
              let claims = try? JSONParser.parse(Array(text.utf8), limits: JSONParser.Limits(maximumDepth: 32, maximumValues: 65_536)),
              case .object = claims
        else { return nil }
        self.init(claims: claims, responseId: responseId)
    }

    /// The request object for `fetch`, signed by `signer` (and encrypted when a POSTing wallet gave keys for it):
    /// on a GET, the claims as they are; on a POST, with the wallet's `wallet_nonce`, and with what its metadata says
    /// taken into account, or the OAuth error that says why it cannot be.
    public func respond(to fetch: RequestObjectFetch, signer: RequestObjectSigner) throws(RequestObjectRefusal) -> String {
        guard case .object(var members) = claims else { throw RequestObjectRefusal(.invalidRequest, "the stored request object is unreadable") }
        var encryption: (key: P256.KeyAgreement.PublicKey, kid: String?, enc: String)?
        if case .post(let walletNonce, let metadata) = fetch {
            if let metadata {
                encryption = try apply(metadata, to: &members, signer: signer)
            }
            if let walletNonce {
                members.removeAll { $0.0 == "wallet_nonce" }
                members.append(("wallet_nonce", .string(walletNonce)))
            }
        }
        let signed: String
        do {
            signed = try signer.sign(.object(members))
        } catch {
            throw RequestObjectRefusal(.invalidRequest, "the request object could not be signed")
        }
        guard let encryption else { return signed }
        do {
            return try RequestObjectEncryption.seal(signed, to: encryption.key, kid: encryption.kid, enc: encryption.enc)
        } catch {
            throw RequestObjectRefusal(.invalidRequest, "the request object could not be encrypted to the wallet's key")
        }
    }

    /// Holds the request to what the wallet says it supports (§5.10.1, §10): the client identifier prefix, ES256 for
    /// the request object, every requested format with an algorithm verifierd verifies, ECDH-ES and a content
    /// encryption both support for the answer (the offer narrowed to those). Returns the key to encrypt the request
    /// object to, when the wallet gave one.
    func apply(_ metadata: WalletMetadata, to members: inout [(String, JSON)], signer: RequestObjectSigner)
        throws(RequestObjectRefusal) -> (key: P256.KeyAgreement.PublicKey, kid: String?, enc: String)?
    {
        if let prefixes = metadata.clientIdPrefixes, !prefixes.contains(signer.clientIdPrefix.rawValue) {
            throw RequestObjectRefusal(.invalidRequest, "the wallet does not support the client identifier prefix "
                                       + "\(signer.clientIdPrefix.rawValue), the only one this verifier uses")
        }
        if let algorithms = metadata.requestObjectSigningAlgorithms, !algorithms.contains("ES256") {
            throw RequestObjectRefusal(.invalidRequest, "the wallet does not accept ES256 request objects, the only algorithm this verifier signs with")
        }
        let metadataIndex = members.firstIndex { $0.0 == "client_metadata" }
        var clientMetadata: [(String, JSON)] = []
        if let metadataIndex, case .object(let entries) = members[metadataIndex].1 { clientMetadata = entries }
        if let formats = metadata.formats {
            let offered = clientMetadata.first { $0.0 == "vp_formats_supported" }?.1
            for format in Self.requestedFormats(members) {
                guard let walletLists = formats[format] else {
                    throw RequestObjectRefusal(.vpFormatsNotSupported, "the wallet does not support \(format), which the request asks for")
                }
                guard case .object(let ours)? = offered?[member: format] else { continue }
                for (name, list) in ours {
                    guard let theirs = walletLists[name], case .array(let values) = list else { continue }
                    let accepted = Set(values.compactMap { value -> String? in
                        if case .int(let number) = value { return String(number) }
                        return value.stringValue
                    })
                    if !theirs.contains(where: accepted.contains) {
                        throw RequestObjectRefusal(.vpFormatsNotSupported, "the wallet's \(format) \(name) share no algorithm with this verifier's")
                    }
                }
            }
        }
        let encrypted = clientMetadata.contains { $0.0 == "encrypted_response_enc_values_supported" }
        if encrypted, let algorithms = metadata.encryptionAlgorithms, !algorithms.contains("ECDH-ES") {
            throw RequestObjectRefusal(.invalidRequest, "the wallet cannot encrypt the answer with ECDH-ES, the only key agreement this verifier uses")
        }
        var contentEncryptions = EncryptedAuthorizationResponse.contentEncryptions
        if let theirs = metadata.contentEncryptions {
            contentEncryptions = contentEncryptions.filter(theirs.contains)
            guard !contentEncryptions.isEmpty else {
                throw RequestObjectRefusal(.invalidRequest, "the wallet supports neither A128GCM nor A256GCM")
            }
            if encrypted, let metadataIndex {
                clientMetadata = clientMetadata.map { entry in
                    entry.0 == "encrypted_response_enc_values_supported" ? (entry.0, .array(contentEncryptions.map { .string($0) })) : entry
                }
                members[metadataIndex] = ("client_metadata", .object(clientMetadata))
            }
        }
        guard let keys = metadata.keys else { return nil }
        guard let recipient = RequestObjectEncryption.recipient(in: keys) else {
            throw RequestObjectRefusal(.invalidRequest, "wallet_metadata.jwks holds no EC P-256 key for ECDH-ES to encrypt the request object to")
        }
        return (recipient.key, recipient.kid, contentEncryptions[0])
    }

    /// The formats the request's DCQL query asks for.
    static func requestedFormats(_ members: [(String, JSON)]) -> [String] {
        guard case .array(let credentials)? = members.first(where: { $0.0 == "dcql_query" })?.1[member: "credentials"] else { return [] }
        var formats: [String] = []
        for credential in credentials {
            if let format = credential[member: "format"]?.stringValue, !formats.contains(format) { formats.append(format) }
        }
        return formats
    }
}
