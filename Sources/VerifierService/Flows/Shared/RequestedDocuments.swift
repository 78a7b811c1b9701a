import CertificationPath
import MDoc
import OpenID4VP
import ReaderAuthentication
import StrictJSON
import TrustStore
import ZKMdoc

/// What a caller asks a holder for, in every flow that builds its own request (web, proximity, OpenID4VP):
/// `[{"docType", "elements": {namespace: {element: intentToRetain}}, "zk"?: "allowed" | "required"}]`. With `zk`,
/// the request offers the accepted zero-knowledge systems that prove that many elements (`zkRequest`; `required`:
/// the holder should answer with a proof or not at all).
struct RequestedDocument: KnownFields {
    let docType: String
    /// namespace -> element -> intentToRetain
    let elements: [String: [String: Bool]]
    let zk: String?

    enum CodingKeys: String, CodingKey, CaseIterable { case docType, elements, zk }

    init(from decoder: any Decoder) throws {
        try Self.refuseUnknownFields(decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        docType = try container.decode(String.self, forKey: .docType)
        elements = try container.decode([String: [String: Bool]].self, forKey: .elements)
        zk = try container.decodeIfPresent(String.self, forKey: .zk)
    }

    /// The request's items (namespaces and elements sorted by name, as JSON objects have no order), or the
    /// default request, within ``RequestLimits`` (else 400 `INVALID_REQUEST`); a document that asks for `zk` gets
    /// the systems of `zeroKnowledge` that prove its elements (else 400 `ZK_NOT_AVAILABLE`).
    /// With `naming` (`trust.requestTrustedAuthorities` `anchors`), each document names the subject key identifiers
    /// of the snapshot's anchors that may vouch for its docType as its trusted authorities.
    static func items(_ documents: [RequestedDocument]?, zeroKnowledge: ZkDocumentVerifier? = nil,
                      naming anchors: TrustSnapshot? = nil) throws(ServiceProblem) -> RequestedItems {
        let items = try plainItems(documents, zeroKnowledge: zeroKnowledge)
        guard let anchors else { return items }
        return RequestedItems(documents: items.documents.map { document in
            var identifiers: [[UInt8]] = []
            for anchor in anchors.anchors where anchor.metadata.authorizes(docType: document.docType) {
                if let identifier = anchor.certificate.subjectKeyIdentifierBytes, !identifiers.contains(identifier),
                   identifiers.count < DCQLQuery.maximumTrustedAuthorities {
                    identifiers.append(identifier)
                }
            }
            return document.naming(issuerKeyIdentifiers: identifiers.isEmpty ? nil : identifiers)
        })
    }

    static func plainItems(_ documents: [RequestedDocument]?, zeroKnowledge: ZkDocumentVerifier?) throws(ServiceProblem) -> RequestedItems {
        guard let documents else { return RequestLimits.defaultRequest }
        var requested: [RequestedItems.Document] = []
        for (index, document) in documents.enumerated() {
            let nameSpaces = document.elements.sorted { $0.key < $1.key }.map {
                (nameSpace: $0.key, elements: $0.value.sorted { $0.key < $1.key }.map { RequestedItems.Element($0.key, intentToRetain: $0.value) })
            }
            let plain = RequestedItems.Document(docType: document.docType, nameSpaces: nameSpaces)
            let zk = try document.zk.map { (mode) throws(ServiceProblem) in
                try zeroKnowledgeRequest(mode, for: plain, at: index, zeroKnowledge: zeroKnowledge)
            }
            requested.append(RequestedItems.Document(docType: document.docType, nameSpaces: nameSpaces, zeroKnowledge: zk))
        }
        let items = RequestedItems(documents: requested)
        if let problem = RequestLimits.problem(with: items) { throw ServiceProblem.invalidRequest(problem) }
        return items
    }

    /// The `zkRequest` for one document: the accepted systems proving exactly its elements, all in the namespace
    /// its docType fixes (a proof binds elements and values, not the namespace).
    static func zeroKnowledgeRequest(_ mode: String, for document: RequestedItems.Document, at index: Int,
                                     zeroKnowledge: ZkDocumentVerifier?) throws(ServiceProblem) -> ZKRequest {
        let key = "documents[\(index)].zk"
        guard mode == "allowed" || mode == "required" else {
            throw ServiceProblem.invalidRequest("\(key) must be \"allowed\" or \"required\"")
        }
        func unavailable(_ reason: String) -> ServiceProblem {
            ServiceProblem(.badRequest, "ZK_NOT_AVAILABLE", "\(key): \(reason)")
        }
        guard let zeroKnowledge, !zeroKnowledge.systems.isEmpty else {
            throw unavailable("this service accepts no zero-knowledge proof systems (zk is not configured or no circuit loaded)")
        }
        guard let nameSpace = ZKNameSpaces.nameSpace(for: document.docType) else {
            throw unavailable("no zero-knowledge proof is read for docType \(document.docType.prefix(80))")
        }
        guard document.nameSpaces.allSatisfy({ $0.nameSpace == nameSpace }) else {
            throw unavailable("a proof for \(document.docType) discloses elements of \(nameSpace) only")
        }
        let counts = Set(zeroKnowledge.systems.map(\.spec.attributeCount)).sorted().map(String.init).joined(separator: ", ")
        guard let request = zeroKnowledge.request(elementCount: document.elementCount, required: mode == "required") else {
            throw unavailable("no accepted system proves \(document.elementCount) element(s) (accepted: \(counts))")
        }
        return request
    }
}
