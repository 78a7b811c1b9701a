import CBOR
import Crypto
import Foundation
import MDoc
import ZKMdoc
import SDJWTVC
import SessionStore

/// What a verifier keeps between an OpenID4VP request and its answer: the origin or client identifier and response
/// URI the transcript binds, the nonce, the encryption key, and what was requested.
public struct OpenID4VPSession: Sendable {
    public enum Flow: String, Sendable {
        /// Over the Digital Credentials API (a request's `flow: "dc_api"`).
        case digitalCredentialsAPI = "dc-api"
        case crossDevice = "cross-device"

        /// The session-store kind: a wallet's post to a response URI can only ever take a cross-device session.
        public var kind: SessionKind { self == .digitalCredentialsAPI ? .oid4vpDigitalCredentialsAPI : .oid4vpCrossDevice }
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
    /// Cross-device: the caller's session id (never sent to the wallet), so that a pushed result can name it.
    public let callerSessionId: String?
    /// The `transaction_data` the request carried (nil when none): the exact strings, which the answer must approve.
    public let transactionData: TransactionData?

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
                redirectURI: String? = nil, callerSessionId: String? = nil, transactionData: TransactionData? = nil)
    {
        self.transactionData = transactionData
        self.callerSessionId = callerSessionId
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

    static let payloadVersion: Int64 = 1
    static let payloadMembers: Set<String> = [
        "flow", "origin", "nonce", "mode", "key", "kid", "requested", "clientId", "responseURI", "credentialIds",
        "multiple", "redirectURI", "credentialSets", "sdJwtQueries",
    ]
    /// Members that records written before them lack (read during an upgrade, while they live): the caller's
    /// session id, zero-knowledge requests; and, only when the request carried any, its transaction data.
    static let optionalPayloadMembers: Set<String> = ["sessionId", "zkRequests", "transactionData", "transactionDataObjects"]

    /// The record to store under `id`: a ``StoredPayload`` (version 1, one member per property); the private key is
    /// the secret part, sealed at rest by the store.
    public func record(id: String, createdAt: Date, expiresAt: Date) -> SessionRecord {
        let optional = { (text: String?) in text.map { CBOR.text($0) } ?? .null }
        var transactionDataMembers: [(String, CBOR)] = []
        if let transactionData {
            // The exact strings sent, nothing re-encoded.
            transactionDataMembers = [("transactionData", .array(transactionData.strings.map { CBOR.text($0) })),
                                      ("transactionDataObjects", .bool(transactionData.reportsObjects))]
        }
        return SessionRecord(id: id, kind: flow.kind, createdAt: createdAt, expiresAt: expiresAt,
                             secret: key.map { Array($0.privateKey.rawRepresentation) } ?? []) { secret in
            let members: [(String, CBOR)] = [
                ("flow", .text(flow.rawValue)), ("origin", optional(origin)), ("nonce", .text(nonce)), ("mode", .text(mode.rawValue)),
                ("key", key == nil ? .null : .bytes(secret)), ("kid", optional(key?.kid)),
                ("requested", RequestedItems(documents: query.credentials.map(\.document)).storageForm),
                ("clientId", optional(clientId)), ("responseURI", optional(responseURI)),
                ("credentialIds", .array(query.credentials.map { .text($0.id) })),
                ("multiple", .array(query.credentials.map { .bool($0.multiple) })), ("redirectURI", optional(redirectURI)),
                ("sessionId", optional(callerSessionId)),
                // Parallel to credentialIds: null for mso_mdoc, the dc+sd-jwt query's own members as JSON text.
                ("sdJwtQueries", .array(query.credentials.map { credential in
                    credential.sdJwtVc.map { CBOR.text($0.storedJSON.text) } ?? .null
                })),
                // Parallel to credentialIds: null, or the zero-knowledge systems the document was asked with.
                ("zkRequests", .array(query.credentials.map { $0.document.zeroKnowledge?.storageForm ?? .null })),
                ("credentialSets", .array(query.credentialSets.map { set in
                    .map([.init("required", .bool(set.required)),
                          .init("options", .array(set.options.map { .array($0.map { CBOR.text($0) }) }))])
                })),
            ]
            return StoredPayload.encode(version: Self.payloadVersion, members + transactionDataMembers)
        }
    }

    /// Reads a stored record back; nil when it is not one this type wrote.
    public init?(record: SessionRecord) {
        guard let payload = record.payload.withUnsafeBytes({ bytes in
                  StoredPayload(Array(bytes), version: Self.payloadVersion, members: Self.payloadMembers, optional: Self.optionalPayloadMembers)
              }),
              let flow = payload["flow"]?.textValue.flatMap(Flow.init(rawValue:)), flow.kind == record.kind,
              let nonce = payload["nonce"]?.textValue, let mode = payload["mode"]?.textValue.flatMap(ResponseMode.init(rawValue:)),
              let storedRequest = payload["requested"], let requested = RequestedItems(storageForm: storedRequest),
              let ids = payload["credentialIds"]?.arrayValue, let multiple = payload["multiple"]?.arrayValue,
              ids.count == requested.documents.count, multiple.count == ids.count,
              let origin = payload.optionalText("origin"), let clientId = payload.optionalText("clientId"),
              let responseURI = payload.optionalText("responseURI"), let redirectURI = payload.optionalText("redirectURI"),
              let kid = payload.optionalText("kid"), let storedSets = payload["credentialSets"]?.arrayValue, let storedKey = payload["key"]
        else { return nil }
        // Absent from records written before SD-JWT VC support: every credential query is then mso_mdoc.
        let sdJwtQueries = payload["sdJwtQueries"]?.arrayValue
        guard sdJwtQueries == nil || sdJwtQueries?.count == ids.count else { return nil }
        let zkRequests = payload["zkRequests"]?.arrayValue
        guard zkRequests == nil || zkRequests?.count == ids.count else { return nil }
        var credentials: [DCQLQuery.Credential] = []
        for index in requested.documents.indices {
            guard let id = ids[index].textValue, let many = multiple[index].boolValue else { return nil }
            if let stored = sdJwtQueries?[index], !stored.isNull {
                guard let text = stored.textValue, let query = SDJWTVCQuery(storedJSON: Array(text.utf8)) else { return nil }
                credentials.append(DCQLQuery.Credential(id: id, sdJwtVc: query, multiple: many))
            } else {
                var document = requested.documents[index]
                if let stored = zkRequests?[index], !stored.isNull {
                    guard let zk = ZKRequest(storageForm: stored) else { return nil }
                    document = RequestedItems.Document(docType: document.docType, nameSpaces: document.nameSpaces, zeroKnowledge: zk)
                }
                credentials.append(DCQLQuery.Credential(id: id, document: document, multiple: many))
            }
        }
        var sets: [DCQLQuery.CredentialSet] = []
        for item in storedSets {
            guard let required = item["required"]?.boolValue, let options = item["options"]?.arrayValue else { return nil }
            var lists: [[String]] = []
            for option in options {
                guard let members = option.arrayValue else { return nil }
                let texts = members.compactMap(\.textValue)
                guard texts.count == members.count else { return nil }
                lists.append(texts)
            }
            sets.append(DCQLQuery.CredentialSet(options: lists, required: required))
        }
        var transactionData: TransactionData?
        if let stored = payload["transactionData"] {
            guard let items = stored.arrayValue, let objects = payload["transactionDataObjects"]?.boolValue else { return nil }
            let strings = items.compactMap(\.textValue)
            guard strings.count == items.count, let read = TransactionData(stored: strings, reportsObjects: objects) else { return nil }
            transactionData = read
        }
        var key: ResponseEncryptionKey?
        if !storedKey.isNull {
            guard let raw = storedKey.bytesValue, let kid, let privateKey = try? P256.KeyAgreement.PrivateKey(rawRepresentation: raw) else {
                return nil
            }
            key = ResponseEncryptionKey(privateKey: privateKey, kid: kid)
        }
        guard mode.encrypted == (key != nil) else { return nil }
        self.init(flow: flow, origin: origin, nonce: nonce, mode: mode, key: key,
                  query: DCQLQuery(credentials: credentials, credentialSets: sets),
                  clientId: clientId, responseURI: responseURI, redirectURI: redirectURI,
                  callerSessionId: payload.optionalText("sessionId") ?? nil, transactionData: transactionData)
    }
}

extension OpenID4VPSession: StoredSession {
    /// The DC API kind; cross-device sessions are read with ``init(record:)`` under ``SessionKind/oid4vpCrossDevice``.
    public static var kind: SessionKind { Flow.digitalCredentialsAPI.kind }
}

extension SessionKind {
    /// An OpenID4VP session over the Digital Credentials API.
    public static let oid4vpDigitalCredentialsAPI: SessionKind = "oid4vp-dc-api"
    /// A cross-device OpenID4VP session, taken by the wallet's post to its response URI.
    public static let oid4vpCrossDevice: SessionKind = "oid4vp-cross-device"
    /// A cross-device request object, served once to the wallet.
    public static let oid4vpRequestObject: SessionKind = "oid4vp-request-object"
    /// A cross-device result: reserved with its session, filled by the wallet's answer, taken once by the caller.
    public static let oid4vpResult: SessionKind = "oid4vp-result"
}
