import CBOR
import COSE

/// Issuer-signed part of a document: the disclosed items by namespace and the issuer's signature over the MSO.
public struct IssuerSigned: Sendable {
    /// Namespaces in the order received, each with its items in the order received.
    public let nameSpaces: [(nameSpace: String, items: [IssuerSignedItem])]
    public let issuerAuth: COSESign1

    /// Most disclosed elements accepted in one document (an mDL has a few dozen).
    public static let maximumItems = 512

    init(_ item: CBORItem, decoder: CBORDecoder) throws(MDocDecodingError) {
        let reader = try StructureReader(item, "IssuerSigned")
        var nameSpaces: [(nameSpace: String, items: [IssuerSignedItem])] = []  // the property's own type: no cast
        var itemCount = 0
        if let nameSpacesItem = reader.optional("nameSpaces") {
            guard let pairs = nameSpacesItem.mapValue else {
                throw reader.mistyped("nameSpaces", nameSpacesItem, "a map")
            }
            for pair in pairs {
                guard let nameSpace = pair.key.textValue else {
                    throw MDocDecodingError("namespace is not a text string", offset: pair.key.offset)
                }
                guard let itemsArray = pair.value.arrayValue else {
                    throw MDocDecodingError("items of \(nameSpace) are not an array", offset: pair.value.offset)
                }
                itemCount += itemsArray.count
                guard itemCount <= Self.maximumItems else {
                    throw MDocDecodingError("more than \(Self.maximumItems) disclosed elements in one document",
                                            offset: pair.value.offset, code: .deviceResponseLimitExceeded)
                }
                var items: [IssuerSignedItem] = []
                items.reserveCapacity(itemsArray.count)
                // Few items (the usual case) are compared with those before them; many go through a set.
                let usesSet = itemsArray.count > 32
                var identifiers = Set<String>(minimumCapacity: usesSet ? itemsArray.count : 0)
                for element in itemsArray {
                    let item = try IssuerSignedItem(element, decoder: decoder)
                    // One element, one value: a second item with the same identifier would make the disclosure
                    // ambiguous (which one did the relying party get?).
                    let repeated = usesSet
                        ? !identifiers.insert(item.elementIdentifier).inserted
                        : items.contains { $0.elementIdentifier == item.elementIdentifier }
                    guard !repeated else {
                        throw MDocDecodingError("\(nameSpace) discloses \(item.elementIdentifier) twice", offset: element.offset)
                    }
                    items.append(item)
                }
                nameSpaces.append((nameSpace, items))
            }
        }
        self.nameSpaces = nameSpaces
        let auth = try reader.required("issuerAuth")
        do {
            issuerAuth = try COSESign1(item: auth, decoder: decoder)
        } catch {
            throw MDocDecodingError("issuerAuth: \(error)", offset: auth.offset)
        }
    }
}
