import CBOR

/// The two header buckets of a COSE message. The protected bucket keeps its exact bytes, which are what is signed.
public struct COSEHeaders: Sendable {
    /// The protected header as received: the content of the bstr (empty for an empty header).
    public let protectedBytes: ArraySlice<UInt8>
    /// The decoded protected map entries (empty when `protectedBytes` is empty).
    public let protected: [CBORItem.Pair]
    public let unprotected: [CBORItem.Pair]

    init(protectedItem: CBORItem, unprotectedItem: CBORItem, decoder: CBORDecoder) throws(COSEError) {
        guard let bytes = protectedItem.bytesValue else {
            throw .malformed("protected header is not a byte string", offset: protectedItem.offset)
        }
        protectedBytes = bytes
        if bytes.isEmpty {
            protected = []
        } else {
            let decoded: CBORItem
            do {
                decoded = try decoder.decode(bytes)
            } catch {
                throw .malformed("protected header is not CBOR: \(error)", offset: bytes.startIndex)
            }
            guard let map = decoded.mapValue else {
                throw .malformed("protected header is not a map", offset: decoded.offset)
            }
            protected = map
        }
        guard let map = unprotectedItem.mapValue else {
            throw .malformed("unprotected header is not a map", offset: unprotectedItem.offset)
        }
        unprotected = map
        let duplicated = protected.contains { p in unprotected.contains { $0.key.isSameDataItem(as: p.key) } }
        if duplicated {
            throw .malformed("a label is in both header buckets", offset: unprotectedItem.offset)
        }
    }

    /// The `alg` of the protected header, checked against what we implement.
    public func algorithm() throws(COSEError) -> COSEAlgorithm {
        guard let entry = protected.first(where: { $0.key.intValue == COSEHeaderLabel.algorithm }) else {
            throw .algorithmMissing
        }
        guard let id = entry.value.intValue else {
            throw .malformed("alg is not an integer", offset: entry.value.offset)
        }
        guard let alg = COSEAlgorithm(rawValue: id) else { throw .algorithmUnsupported(id) }
        return alg
    }

    /// Applies RFC 9052 section 3.1 to `crit` (label 2): when present it sits in the protected bucket, is a non-empty
    /// array of labels, and every label it lists is in the protected bucket and among `understood`.
    public func checkCritical(understood: Set<Int64> = COSEHeaderLabel.understood) throws(COSEError) {
        if unprotected.contains(where: { $0.key.intValue == COSEHeaderLabel.critical }) {
            throw .criticalHeaderInvalid("crit is in the unprotected bucket")
        }
        guard let entry = protected.first(where: { $0.key.intValue == COSEHeaderLabel.critical }) else { return }
        guard let labels = entry.value.arrayValue, !labels.isEmpty else {
            throw .criticalHeaderInvalid("crit is not a non-empty array")
        }
        for label in labels {
            if let text = label.textValue {
                throw .criticalHeaderInvalid("label \"\(text)\" is not understood")
            }
            guard let number = label.intValue else {
                throw .criticalHeaderInvalid("a crit entry is neither an integer nor a text label")
            }
            guard protected.contains(where: { $0.key.intValue == number }) else {
                throw .criticalHeaderInvalid("label \(number) is listed but not in the protected bucket")
            }
            guard understood.contains(number) else {
                throw .criticalHeaderInvalid("label \(number) is not understood")
            }
        }
    }

    /// The value of a label from either bucket (protected first).
    public func value(forLabel label: Int64) -> CBORItem? {
        (protected.first { $0.key.intValue == label } ?? unprotected.first { $0.key.intValue == label })?.value
    }

    /// The `x5chain` certificates (RFC 9360): one bstr or an array of bstr, in either bucket. Empty when absent.
    public func x5chain() throws(COSEError) -> [ArraySlice<UInt8>] {
        guard let item = value(forLabel: COSEHeaderLabel.x5chain) else { return [] }
        if let single = item.bytesValue { return [single] }
        guard let array = item.arrayValue, !array.isEmpty else {
            throw .malformed("x5chain is neither a bstr nor a non-empty array of bstr", offset: item.offset)
        }
        var certificates: [ArraySlice<UInt8>] = []
        for element in array {
            guard let der = element.bytesValue else {
                throw .malformed("x5chain element is not a bstr", offset: element.offset)
            }
            certificates.append(der)
        }
        return certificates
    }
}
