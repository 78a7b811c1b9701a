import CBOR

/// RequestedItems as session stores keep them:
/// `[[docType, [[namespace, [[element, intentToRetain]…]]…], ?[issuerKeyIdentifier…]]…]`, order preserved; the third
/// member only for a document that names trusted authorities.
extension RequestedItems {
    public var storageForm: CBOR {
        .array(documents.map { document in
            var fields: [CBOR] = [.text(document.docType), .array(document.nameSpaces.map { entry in
                .array([.text(entry.nameSpace), .array(entry.elements.map { .array([.text($0.identifier), .bool($0.intentToRetain)]) })])
            })]
            if let identifiers = document.issuerKeyIdentifiers { fields.append(.array(identifiers.map { .bytes($0) })) }
            return .array(fields)
        })
    }

    /// Nil when `item` is not in ``storageForm``.
    public init?(storageForm item: CBORItem) {
        guard let documentItems = item.arrayValue else { return nil }
        var documents: [Document] = []
        for entry in documentItems {
            guard let fields = entry.arrayValue, fields.count == 2 || fields.count == 3, let docType = fields[0].textValue,
                  let nameSpaceItems = fields[1].arrayValue else { return nil }
            var identifiers: [[UInt8]]?
            if fields.count == 3 {
                guard let items = fields[2].arrayValue else { return nil }
                let bytes = items.compactMap(\.bytesValue).map { Array($0) }
                guard bytes.count == items.count else { return nil }
                identifiers = bytes
            }
            var nameSpaces: [(nameSpace: String, elements: [Element])] = []
            for nameSpaceItem in nameSpaceItems {
                guard let pair = nameSpaceItem.arrayValue, pair.count == 2, let nameSpace = pair[0].textValue,
                      let elementItems = pair[1].arrayValue else { return nil }
                var elements: [Element] = []
                for element in elementItems {
                    guard let parts = element.arrayValue, parts.count == 2, let name = parts[0].textValue,
                          let retain = parts[1].boolValue else { return nil }
                    elements.append(.init(name, intentToRetain: retain))
                }
                nameSpaces.append((nameSpace, elements))
            }
            documents.append(.init(docType: docType, nameSpaces: nameSpaces, issuerKeyIdentifiers: identifiers))
        }
        self.init(documents: documents)
    }
}
