/// `request.elements`: every disclosed element, issuer-signed or device-signed, was requested for this docType.
/// Not applicable when the caller did not say what was requested (e.g. `/v1/mdoc/verify`, Apple's in-app flow).
struct RequestedElementsCheck: DocumentCheck {
    let id = VerificationCheckID.requestElements

    func evaluate(_ context: DocumentContext) -> CheckOutcome {
        guard let requested = context.options.requestedItems else {
            return .notApplicable("the caller did not give the request")
        }
        return Self.outcome(docType: context.document.docType, disclosed: Self.disclosed(context.document), requested: requested)
    }

    /// The rule over what a document of `docType` discloses.
    static func outcome(docType: String, disclosed: [ElementReference], requested: RequestedItems) -> CheckOutcome {
        guard !requested.requests(for: docType).isEmpty else {
            return .failed(.elementNotRequested, "docType \(docType) was not requested")
        }
        let extra = disclosed.filter {
            !requested.isRequested(docType: docType, nameSpace: $0.nameSpace, identifier: $0.identifier)
        }
        guard extra.isEmpty else {
            let names = extra.prefix(8).map { "\($0.nameSpace)/\($0.identifier)" }.joined(separator: ", ")
            return .failed(.elementNotRequested,
                           "\(extra.count) disclosed element(s) were not requested: \(names)\(extra.count > 8 ? ", ..." : "")")
        }
        return .passed()
    }

    /// Every element the document discloses, issuer-signed first, without repeats.
    static func disclosed(_ document: Document) -> [ElementReference] {
        var seen = Set<ElementReference>()
        var result: [ElementReference] = []
        for (nameSpace, items) in document.issuerSigned.nameSpaces {
            for item in items {
                let reference = ElementReference(nameSpace: nameSpace, identifier: item.elementIdentifier)
                if seen.insert(reference).inserted { result.append(reference) }
            }
        }
        for (nameSpace, elements) in document.deviceSigned?.nameSpaces ?? [] {
            for element in elements {
                let reference = ElementReference(nameSpace: nameSpace, identifier: element.identifier)
                if seen.insert(reference).inserted { result.append(reference) }
            }
        }
        return result
    }

    /// Requested elements of this docType that the document does not disclose, in request order.
    static func notReturned(_ document: Document, requested: RequestedItems?) -> [ElementReference] {
        guard let requested else { return [] }
        return notReturned(docType: document.docType, disclosed: disclosed(document), requested: requested)
    }

    /// The same for what a document of `docType` discloses.
    static func notReturned(docType: String, disclosed: [ElementReference], requested: RequestedItems?) -> [ElementReference] {
        guard let requested else { return [] }
        let disclosed = Set(disclosed)
        var seen = Set<ElementReference>()
        var result: [ElementReference] = []
        for request in requested.requests(for: docType) {
            for (nameSpace, elements) in request.nameSpaces {
                for element in elements {
                    let reference = ElementReference(nameSpace: nameSpace, identifier: element.identifier)
                    if !disclosed.contains(reference), seen.insert(reference).inserted { result.append(reference) }
                }
            }
        }
        return result
    }
}
