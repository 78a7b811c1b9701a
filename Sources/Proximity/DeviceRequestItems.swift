import CBOR
import MDoc

/// The ItemsRequests of a DeviceRequest a reader supplies as is, so the answer can still be compared with what was
/// asked. Read strictly: `{"version": "1.x", "docRequests": [{"itemsRequest": #6.24(ItemsRequest), ...}], ...}`.
enum DeviceRequestItems {
    static let limits = CBORDecodingLimits(maxDepth: 16, maxItems: 4096, maxInputBytes: 64 << 10)

    static func requested(in bytes: [UInt8]) throws(ProximityError) -> RequestedItems {
        let decoder = CBORDecoder(limits: limits)
        func invalid(_ detail: String) -> ProximityError { ProximityError(.deviceRequestInvalid, detail) }
        let item: CBORItem
        do {
            item = try decoder.decode(bytes)
        } catch {
            throw invalid("not one CBOR item of at most 64 KiB: \(error)")
        }
        guard let version = item["version"]?.textValue, version.hasPrefix("1."),
              let docRequests = item["docRequests"]?.arrayValue, !docRequests.isEmpty
        else { throw invalid("not a DeviceRequest with version 1.x and docRequests") }
        var documents: [RequestedItems.Document] = []
        for docRequest in docRequests {
            guard let tagged = docRequest["itemsRequest"]?.tagged, tagged.tag == CBORTag.encodedCBOR,
                  let embedded = tagged.item.bytesValue, let itemsRequest = try? decoder.decode(Array(embedded)),
                  let docType = itemsRequest["docType"]?.textValue, let nameSpaces = itemsRequest["nameSpaces"]?.mapValue
            else { throw invalid("a DocRequest has no tag-24 ItemsRequest with docType and nameSpaces") }
            var entries: [(nameSpace: String, elements: [RequestedItems.Element])] = []
            for nameSpace in nameSpaces {
                guard let name = nameSpace.key.textValue, let elements = nameSpace.value.mapValue else {
                    throw invalid("nameSpaces is not {namespace: {element: intentToRetain}}")
                }
                var list: [RequestedItems.Element] = []
                for element in elements {
                    guard let identifier = element.key.textValue, let retain = element.value.boolValue else {
                        throw invalid("an element is not identifier: intentToRetain")
                    }
                    list.append(.init(identifier, intentToRetain: retain))
                }
                entries.append((name, list))
            }
            documents.append(.init(docType: docType, nameSpaces: entries))
        }
        return RequestedItems(documents: documents)
    }
}
