import CBOR
import Crypto
import Foundation
import MDoc
import SessionStore

/// What a verifier keeps between an OpenID4VP request and its answer: the origin or client identifier and response
/// URI the transcript binds, the nonce, the encryption key, and what was requested.
public struct OpenID4VPSession: Sendable {
    public enum Flow: String, Sendable {
        case digitalCredentialsAPI = "dc_api"
        case crossDevice = "cross_device"

        /// The session-store kind: a wallet's post to a response URI can only ever take a cross-device session.
        public var kind: String { self == .digitalCredentialsAPI ? "oid4vp" : "oid4vp-xd" }
    }

    public let flow: Flow
    public let origin: String?
    public let nonce: String
    public let mode: ResponseMode
    public let key: ResponseEncryptionKey?
    /// The DCQL query the request carried: its credential ids, documents and `multiple` flags.
    public let query: DCQLQuery
    public let clientId: String?
    public let responseURI: String?
    /// The thumbprint the transcript binds when there is no key here (an answer verified offline whose encryption
    /// key is known only by its thumbprint); else the key's.
    public let jwkThumbprint: [UInt8]?
    /// Cross-device: where the wallet sends the user after posting its answer (the caller's page), if any.
    public let redirectURI: String?

    /// Every document the query asks for.
    public var requested: RequestedItems { query.requested }

    /// The SessionTranscript the wallet's device signature must cover (Appendix B.2.6).
    public var transcript: [UInt8] {
        switch flow {
        case .digitalCredentialsAPI:
            return OpenID4VPHandover.dcAPI(origin: origin ?? "", nonce: nonce, jwkThumbprint: jwkThumbprint ?? key?.thumbprint)
        case .crossDevice:
            return OpenID4VPHandover.redirect(clientId: clientId ?? "", nonce: nonce, jwkThumbprint: jwkThumbprint ?? key?.thumbprint,
                                              responseURI: responseURI ?? "")
        }
    }

    public init(flow: Flow, origin: String?, nonce: String, mode: ResponseMode, key: ResponseEncryptionKey?,
                query: DCQLQuery, clientId: String?, responseURI: String?, jwkThumbprint: [UInt8]? = nil,
                redirectURI: String? = nil)
    {
        self.jwkThumbprint = jwkThumbprint
        self.redirectURI = redirectURI
        self.flow = flow
        self.origin = origin
        self.nonce = nonce
        self.mode = mode
        self.key = key
        self.query = query
        self.clientId = clientId
        self.responseURI = responseURI
    }

    /// The record to store under `id`; the private key is the secret part, sealed at rest by the store.
    public func record(id: String, createdAt: Date, expiresAt: Date) -> SessionRecord {
        let optional = { (text: String?) in text.map { CBOR.text($0) } ?? .null }
        return SessionRecord(id: id, kind: flow.kind, createdAt: createdAt, expiresAt: expiresAt,
                             secret: key.map { Array($0.privateKey.rawRepresentation) } ?? []) { secret in
            CBOREncoder().encode([
                .text(flow.rawValue), optional(origin), .text(nonce), .text(mode.rawValue),
                key == nil ? .null : .bytes(secret), optional(key?.kid), requested.storageForm, optional(clientId),
                optional(responseURI), .array(query.credentials.map { .text($0.id) }),
                .array(query.credentials.map { .bool($0.multiple) }), optional(redirectURI),
                .array(query.credentialSets.map { set in
                    [.bool(set.required), .array(set.options.map { .array($0.map { CBOR.text($0) }) })]
                }),
            ])
        }
    }

    /// Reads a stored record back; nil when it is not one this type wrote.
    public init?(record: SessionRecord) {
        let decoded = record.payload.withUnsafeBytes { try? CBORDecoder().decode(Array($0)) }
        guard let parts = decoded?.arrayValue, parts.count == 13,
              let flow = parts[0].textValue.flatMap(Flow.init(rawValue:)), flow.kind == record.kind,
              let nonce = parts[2].textValue, let mode = parts[3].textValue.flatMap(ResponseMode.init(rawValue:)),
              let requested = RequestedItems(storageForm: parts[6]),
              let ids = parts[9].arrayValue?.compactMap(\.textValue), let multiple = parts[10].arrayValue?.compactMap(\.boolValue),
              ids.count == requested.documents.count, multiple.count == ids.count
        else { return nil }
        var sets: [DCQLQuery.CredentialSet] = []
        for item in parts[12].arrayValue ?? [] {
            guard let pair = item.arrayValue, pair.count == 2, let required = pair[0].boolValue, let options = pair[1].arrayValue else {
                return nil
            }
            sets.append(DCQLQuery.CredentialSet(options: options.map { $0.arrayValue?.compactMap(\.textValue) ?? [] }, required: required))
        }
        let query = DCQLQuery(credentials: requested.documents.indices.map {
            DCQLQuery.Credential(id: ids[$0], document: requested.documents[$0], multiple: multiple[$0])
        }, credentialSets: sets)
        var key: ResponseEncryptionKey?
        if let raw = parts[4].bytesValue {
            guard let kid = parts[5].textValue, let privateKey = try? P256.KeyAgreement.PrivateKey(rawRepresentation: raw) else {
                return nil
            }
            key = ResponseEncryptionKey(privateKey: privateKey, kid: kid)
        }
        guard mode.encrypted == (key != nil) else { return nil }
        self.init(flow: flow, origin: parts[1].textValue, nonce: nonce, mode: mode, key: key, query: query,
                  clientId: parts[7].textValue, responseURI: parts[8].textValue, redirectURI: parts[11].textValue)
    }
}

extension OpenID4VPSession: StoredSession {
    /// The DC API kind; cross-device sessions are read with ``init(record:)`` under `oid4vp-xd`.
    public static var kind: String { Flow.digitalCredentialsAPI.kind }
}
