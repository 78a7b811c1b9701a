import Encodings
import MDoc
import SDJWTVC

/// The presentations of an answer, each with what its credential query asked for, after the checks OpenID4VP 1.0
/// leaves to the verifier (6.4, 8.6): every credential id is one the query holds, each array has one presentation
/// (unless the query allows `multiple`), each is of its query's format, and the answer came in the session's
/// response mode.
public struct OpenID4VPPresentations: Sendable {
    public struct Presentation: Sendable {
        public let credentialId: String
        public let content: Content
    }

    /// One presentation by format.
    public enum Content: Sendable {
        /// `mso_mdoc`: a DeviceResponse and the one document its credential query requested (nil offline without a query).
        case mdoc(DeviceResponse, requested: RequestedItems?)
        /// `dc+sd-jwt`: the SD-JWT+KB string as received and its credential query (nil offline without a query).
        case sdJwtVc(String, query: SDJWTVCQuery?)
    }

    /// Most bytes of one SD-JWT VC presentation string.
    public static let maximumSDJWTBytes = 128 << 10

    public let presentations: [Presentation]

    public init(_ answer: WalletAnswer, session: OpenID4VPSession) throws(ResponseFailure) {
        let token: VPToken
        switch answer {
        case .error(let code, let description):
            throw ResponseFailure(.walletDeclined, "the wallet answered \(code)" + (description.map { ": \($0)" } ?? ""))
        case .encrypted(let compact):
            guard let key = session.key else {
                throw ResponseFailure(.envelopeMalformed, "this session asked for an unencrypted answer (dc_api), not a JWE")
            }
            token = try VPToken.fromDecryptedResponse(try EncryptedAuthorizationResponse.open(compact, key: key))
        case .plain(let plain):
            guard session.key == nil else {
                throw ResponseFailure(.envelopeMalformed, "this session asked for an encrypted answer (\(session.mode.rawValue)), not a vp_token in the clear")
            }
            token = plain
        }
        let query = session.query
        guard !token.presentations.isEmpty else {
            throw ResponseFailure(.documentsNotReturned, "the vp_token holds no presentation")
        }
        guard token.presentations.count <= VPToken.maximumCredentials else {
            throw ResponseFailure(.vpTokenMalformed, "the vp_token holds \(token.presentations.count) credential ids; the query has \(query.credentials.count)")
        }
        var presentations: [Presentation] = []
        var documentCount = 0
        for (id, values) in token.presentations.sorted(by: { $0.key < $1.key }) {
            // Offline (`verifierd oid4vp verify` without --dcql) there is no query: every id counts, nothing is compared.
            let credential = query.credentials.isEmpty ? DCQLQuery.Credential(id: id, document: .init(docType: "", nameSpaces: []))
                : query.credential(id)
            guard let credential else {
                throw ResponseFailure(.elementNotRequested, "the vp_token answers credential id \"\(String(id.prefix(64)))\", which the query does not hold")
            }
            guard !values.isEmpty else { throw ResponseFailure(.vpTokenMalformed, "credential id \"\(id)\" has an empty array") }
            guard values.count == 1 || (credential.multiple && values.count <= VPToken.maximumPresentations) else {
                throw ResponseFailure(.vpTokenMalformed, credential.multiple
                    ? "credential id \"\(id)\" has \(values.count) presentations; at most \(VPToken.maximumPresentations)"
                    : "credential id \"\(id)\" has \(values.count) presentations; its query does not allow multiple")
            }
            for value in values {
                // Offline without a query, the string tells the format: base64url never holds '~', an SD-JWT always does.
                if credential.sdJwtVc != nil || (query.credentials.isEmpty && value.utf8.contains(UInt8(ascii: "~"))) {
                    guard value.utf8.count <= Self.maximumSDJWTBytes else {
                        throw ResponseFailure(.vpTokenMalformed, "the presentation for \"\(id)\" is over \(Self.maximumSDJWTBytes) bytes")
                    }
                    documentCount += 1
                    guard documentCount <= DeviceResponse.maximumDocuments else {
                        throw ResponseFailure(.vpTokenMalformed, "the vp_token holds more than \(DeviceResponse.maximumDocuments) documents")
                    }
                    presentations.append(Presentation(credentialId: id, content: .sdJwtVc(value, query: credential.sdJwtVc)))
                    continue
                }
                guard let bytes = Base64URL.decodeBytes(value) else {
                    throw ResponseFailure(.vpTokenMalformed, "a presentation for \"\(id)\" is not base64url")
                }
                let response: DeviceResponse
                do {
                    response = try DeviceResponse(bytes: bytes)
                } catch {
                    throw ResponseFailure(error.code, "the presentation for \"\(id)\": \(error.description)")
                }
                // HAIP 5.3.1: one mdoc per DeviceResponse, so a query without `multiple` yields one document; the whole
                // answer holds at most as many documents as any DeviceResponse may (bounded work on the open route).
                // An mso_mdoc_zk query is answered by one zkDocuments entry and nothing else, an mso_mdoc query by
                // one document and no proof: the format asked for is the format answered.
                if !query.credentials.isEmpty {
                    if credential.format == DCQLQuery.mdocZKFormat {
                        guard response.documents.isEmpty, response.zkDocuments.count == 1 else {
                            throw ResponseFailure(.vpTokenMalformed, "the presentation for \"\(id)\" (mso_mdoc_zk) holds "
                                                  + "\(response.documents.count) documents and \(response.zkDocuments.count) zkDocuments; it carries one proof")
                        }
                        let named = response.zkDocuments[0].zkSystemId
                        guard credential.document.zeroKnowledge?.systems.contains(where: { $0.id == named || $0.spec.circuitHash == named }) == true else {
                            throw ResponseFailure(.vpTokenMalformed, "the presentation for \"\(id)\" is proven by a system the request did not offer")
                        }
                    } else if response.documents.count != 1 || !response.zkDocuments.isEmpty {
                        throw ResponseFailure(.vpTokenMalformed,
                                              "the presentation for \"\(id)\" holds \(response.documents.count) documents"
                                              + (response.zkDocuments.isEmpty ? "" : " and \(response.zkDocuments.count) zkDocuments")
                                              + "; one DeviceResponse carries one mdoc")
                    }
                }
                documentCount += response.documents.count + response.zkDocuments.count
                guard documentCount <= DeviceResponse.maximumDocuments else {
                    throw ResponseFailure(.vpTokenMalformed, "the vp_token holds more than \(DeviceResponse.maximumDocuments) documents")
                }
                presentations.append(Presentation(credentialId: id, content: .mdoc(response,
                    requested: query.credentials.isEmpty ? nil : RequestedItems(documents: [credential.document]))))
            }
        }
        if let unmet = query.unmet(answered: Set(token.presentations.keys)), !query.credentials.isEmpty {
            throw ResponseFailure(.documentsNotReturned, unmet)
        }
        self.presentations = presentations
    }
}
