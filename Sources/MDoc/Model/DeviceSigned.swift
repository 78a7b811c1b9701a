import CBOR
import COSE

/// Device-signed part of a document: device-signed elements and the device's signature or MAC.
public struct DeviceSigned: Sendable {
    /// How the device authenticated the document: exactly one of the two (ISO 18013-5 9.1.3.4).
    public enum DeviceAuth: Sendable {
        case signature(COSESign1)
        case mac(COSEMac0)
    }

    /// `DeviceNameSpacesBytes` exactly as received (`#6.24(bstr)`), embedded verbatim in DeviceAuthentication.
    public let nameSpacesBytes: ArraySlice<UInt8>
    /// The device-signed elements by namespace, in the order received.
    public let nameSpaces: [(nameSpace: String, elements: [(identifier: String, value: CBORItem)])]
    public let deviceAuth: DeviceAuth

    init(_ item: CBORItem, decoder: CBORDecoder) throws(MDocDecodingError) {
        let reader = try StructureReader(item, "DeviceSigned")
        let embedded = try EmbeddedCBOR(try reader.required("nameSpaces"), name: "DeviceNameSpacesBytes", decoder: decoder)
        nameSpacesBytes = embedded.taggedBytes
        guard let pairs = embedded.content.mapValue else {
            throw MDocDecodingError("DeviceNameSpaces is not a map", offset: embedded.content.offset)
        }
        var nameSpaces: [(nameSpace: String, elements: [(identifier: String, value: CBORItem)])] = []  // no cast
        for pair in pairs {
            guard let nameSpace = pair.key.textValue, let elements = pair.value.mapValue else {
                throw MDocDecodingError("DeviceNameSpaces entry is not tstr => map", offset: pair.key.offset)
            }
            var items: [(identifier: String, value: CBORItem)] = []
            for element in elements {
                guard let identifier = element.key.textValue else {
                    throw MDocDecodingError("device-signed element identifier is not text", offset: element.key.offset)
                }
                items.append((identifier, element.value))
            }
            nameSpaces.append((nameSpace, items))
        }
        self.nameSpaces = nameSpaces

        let authReader = try StructureReader(try reader.required("deviceAuth"), "DeviceAuth")
        switch (authReader.optional("deviceSignature"), authReader.optional("deviceMac")) {
        case (let signature?, nil):
            do { deviceAuth = .signature(try COSESign1(item: signature, decoder: decoder)) } catch {
                throw MDocDecodingError("deviceAuth: \(error)", offset: authReader.item.offset)
            }
        case (nil, let mac?):
            do { deviceAuth = .mac(try COSEMac0(item: mac, decoder: decoder)) } catch {
                throw MDocDecodingError("deviceAuth: \(error)", offset: authReader.item.offset)
            }
        case (_?, _?):
            throw MDocDecodingError("deviceAuth holds both deviceSignature and deviceMac; ISO 18013-5 allows exactly one",
                                    offset: authReader.item.offset)
        case (nil, nil):
            throw MDocDecodingError("deviceAuth holds neither deviceSignature nor deviceMac; ISO 18013-5 requires one",
                                    offset: authReader.item.offset)
        }
    }
}
