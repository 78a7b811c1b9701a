import MDoc
import ReaderAuthentication
import StrictJSON

/// What a caller asks a holder for, in every flow that builds its own request (web, proximity, OpenID4VP):
/// `[{"docType", "elements": {namespace: {element: intentToRetain}}}]`.
struct RequestedDocument: KnownFields {
    let docType: String
    /// namespace -> element -> intentToRetain
    let elements: [String: [String: Bool]]

    enum CodingKeys: String, CodingKey, CaseIterable { case docType, elements }

    init(from decoder: any Decoder) throws {
        try Self.refuseUnknownFields(decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        docType = try container.decode(String.self, forKey: .docType)
        elements = try container.decode([String: [String: Bool]].self, forKey: .elements)
    }

    /// The request's items (namespaces and elements sorted by name, as JSON objects have no order), or the
    /// default request, within ``RequestLimits`` (else 400 `INVALID_REQUEST`).
    static func items(_ documents: [RequestedDocument]?) throws(ServiceProblem) -> RequestedItems {
        guard let documents else { return RequestLimits.defaultRequest }
        let requested = RequestedItems(documents: documents.map { document in
            RequestedItems.Document(docType: document.docType, nameSpaces: document.elements.sorted { $0.key < $1.key }.map {
                (nameSpace: $0.key, elements: $0.value.sorted { $0.key < $1.key }.map { RequestedItems.Element($0.key, intentToRetain: $0.value) })
            })
        })
        if let problem = RequestLimits.problem(with: requested) { throw ServiceProblem.invalidRequest(problem) }
        return requested
    }
}
