import CBOR
import MDoc
import ZKMdoc

/// Builds a `DeviceRequest` (ISO 18013-5 8.3.2.1.2.1) for a web or proximity request, signed as the mode says.
///
/// Encoding is deterministic (RFC 8949 4.2.1: map keys sorted by their encoded bytes, shortest heads, definite
/// lengths), which browsers accept and which never repeats a key. `itemsRequest` and `deviceRequestInfo` are
/// tag-24 embedded, and the signatures cover those exact bytes.
public struct DeviceRequestBuilder: Sendable {
    public let readerAuth: ReaderAuthenticationKey?
    public let mode: ReaderAuthMode
    /// The relying party's registration certificate (ETSI TS 119 475, the compact JWT), put into each ItemsRequest's
    /// `requestInfo` as `euWrprc`, where ETSI TS 119 472-2 places it for ISO requests; nil for none.
    public let registrationCertificate: String?

    public init(readerAuth: ReaderAuthenticationKey?, mode: ReaderAuthMode, registrationCertificate: String? = nil) {
        self.readerAuth = readerAuth
        self.mode = mode
        self.registrationCertificate = registrationCertificate
    }

    /// The same builder carrying `certificate` in its requests.
    public func registering(_ certificate: String?) -> DeviceRequestBuilder {
        DeviceRequestBuilder(readerAuth: readerAuth, mode: mode, registrationCertificate: certificate)
    }

    /// The DeviceRequest bytes for `requested`, bound to the SessionTranscript (its CBOR bytes, not tag-24 wrapped)
    /// by the reader signatures.
    public func build(_ requested: RequestedItems, sessionTranscript: [UInt8]) throws -> [UInt8] {
        let encoder = CBOREncoder(mode: .deterministic)
        let itemsRequests: [CBOR] = requested.documents.map {
            Self.itemsRequestBytes($0, registrationCertificate: registrationCertificate, encoder: encoder)
        }
        // readerAuthAll (with its deviceRequestInfo) makes this a second-edition request, version 1.1.
        let signsAll = mode.all ? readerAuth : nil
        var docRequests: [CBOR] = []
        for itemsRequest in itemsRequests {
            var fields: [CBOR.Pair] = [.init("itemsRequest", itemsRequest)]
            if let readerAuth, mode.perDocRequest {
                let payload = encoder.encode(.embedded(.array([.text("ReaderAuthentication"), .encoded(sessionTranscript), itemsRequest])))
                fields.append(.init("readerAuth", try readerAuth.sign(detachedPayload: payload)))
            }
            docRequests.append(.map(fields))
        }
        var request: [CBOR.Pair] = [
            .init("version", .text(signsAll == nil ? "1.0" : "1.1")),
            .init("docRequests", .array(docRequests)),
        ]
        if let signsAll {
            let deviceRequestInfo = Self.deviceRequestInfoBytes(count: requested.documents.count, encoder: encoder)
            let payload = encoder.encode(.embedded(.array([
                .text("ReaderAuthenticationAll"), .encoded(sessionTranscript), .array(itemsRequests), deviceRequestInfo,
            ])))
            request.append(.init("readerAuthAll", .array([try signsAll.sign(detachedPayload: payload)])))
            request.append(.init("deviceRequestInfo", deviceRequestInfo))
        }
        return encoder.encode(.map(request))
    }

    /// `ItemsRequestBytes = #6.24(bstr .cbor {"docType", "nameSpaces": {ns: {element: intentToRetain}},
    /// ? "requestInfo": {? "issuerIdentifiers": [+ bstr], ? "zkRequest": ZkRequest}})` (ISO 18013-5 second
    /// edition DocRequestInfo: the issuer identifiers are AuthorityKeyIdentifier keyIdentifiers, what OpenID4VP's
    /// `aki` trusted authorities carry as base64url).
    static func itemsRequestBytes(_ document: RequestedItems.Document, registrationCertificate: String? = nil, encoder: CBOREncoder) -> CBOR {
        let nameSpaces: [CBOR.Pair] = document.nameSpaces.map { entry in
            .init(.text(entry.nameSpace), .map(entry.elements.map { .init(.text($0.identifier), .bool($0.intentToRetain)) }))
        }
        var fields: [CBOR.Pair] = [.init("docType", .text(document.docType)), .init("nameSpaces", .map(nameSpaces))]
        var info: [CBOR.Pair] = []
        if let identifiers = document.issuerKeyIdentifiers {
            info.append(.init("issuerIdentifiers", .array(identifiers.map { .bytes($0) })))
        }
        if let zk = document.zeroKnowledge { info.append(.init("zkRequest", zk.cbor)) }
        if let registrationCertificate { info.append(.init("euWrprc", .text(registrationCertificate))) }
        if !info.isEmpty { fields.append(.init("requestInfo", .map(info))) }
        let itemsRequest: CBOR = .map(fields)
        return .tagged(CBORTag.encodedCBOR, .bytes(encoder.encode(itemsRequest)))
    }

    /// `DeviceRequestInfoBytes`: one mandatory use case asking for every document together.
    static func deviceRequestInfoBytes(count: Int, encoder: CBOREncoder) -> CBOR {
        let set: CBOR = .array((0..<count).map { .unsigned(UInt64($0)) })
        let info: CBOR = .map([.init("useCases", [.map([.init("mandatory", true), .init("documentSets", [set])])])])
        return .tagged(CBORTag.encodedCBOR, .bytes(encoder.encode(info)))
    }
}
