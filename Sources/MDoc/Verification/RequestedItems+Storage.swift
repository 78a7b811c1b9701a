import CBOR

/// RequestedItems as session stores keep them:
/// `[[docType, [[namespace, [[element, intentToRetain]…]]…]]…]`, order preserved.
extension RequestedItems {
    public var storageForm: CBOR {
        .array(documents.map { document in
            .array([.text(document.docType), .array(document.nameSpaces.map { entry in
                .array([.text(entry.nameSpace), .array(entry.elements.map { .array([.text($0.identifier), .bool($0.intentToRetain)]) })])
            })])
        })
    }

    /// Nil when `item` is not in ``storageForm``.
    public init?(storageForm item: CBORItem) {
        guard let documentItems = item.arrayValue else { return nil }
        var documents: [Document] = []
        for entry in documentItems {
            guard let fields = entry.arrayValue, fields.count == 2, let docType = fields[0].textValue,
                  let nameSpaceItems = fields[1].arrayValue else { return nil }
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
            documents.append(.init(docType: docType, nameSpaces: nameSpaces))
        }
        self.init(documents: documents)
    }
}
