import Crypto

/// The value-digest comparison of every issuer-signed item, computed once and shared by the digest check and
/// the claims (each claim is marked with whether its own digest matched).
struct DigestEvaluation: Sendable {
    enum ItemResult: Sendable, Equatable {
        case matched
        case mismatched
        case missing
    }

    /// Nil when the MSO's digest algorithm is not supported.
    let algorithm: String?
    /// Per namespace and element identifier, in document order.
    let results: [Item]

    typealias Item = (nameSpace: String, identifier: String, digestID: UInt64, result: ItemResult)

    init(document: Document) {
        let mso = document.mobileSecurityObject
        guard let hash = Self.hashFunction(named: mso.digestAlgorithm) else {
            algorithm = nil
            results = []
            return
        }
        algorithm = mso.digestAlgorithm
        // The same element type as the property (an unlabelled tuple array would be cast element by element).
        var results: [Item] = []
        for (nameSpace, items) in document.issuerSigned.nameSpaces {
            let expected = mso.valueDigests[nameSpace]
            for item in items {
                let result: ItemResult
                if let digest = expected?[item.digestID] {
                    result = hash(item.taggedBytes, digest) ? .matched : .mismatched
                } else {
                    result = .missing
                }
                results.append((nameSpace: nameSpace, identifier: item.elementIdentifier, digestID: item.digestID,
                                result: result))
            }
        }
        self.results = results
    }

    /// SHA-256/384/512 as named by ISO 18013-5, as a comparison: whether the digest of the first bytes is the
    /// second (compared in place, no copy of the digest).
    static func hashFunction(named name: String) -> (@Sendable (ArraySlice<UInt8>, ArraySlice<UInt8>) -> Bool)? {
        switch name {
        case "SHA-256": return { data, expected in SHA256.hash(data: data).withUnsafeBytes { same($0, expected) } }
        case "SHA-384": return { data, expected in SHA384.hash(data: data).withUnsafeBytes { same($0, expected) } }
        case "SHA-512": return { data, expected in SHA512.hash(data: data).withUnsafeBytes { same($0, expected) } }
        default: return nil
        }
    }

    /// Whether a computed digest equals the MSO's (public values both, so an early exit leaks nothing).
    static func same(_ digest: UnsafeRawBufferPointer, _ expected: ArraySlice<UInt8>) -> Bool {
        guard digest.count == expected.count else { return false }
        return expected.withUnsafeBytes { expected in
            for index in 0..<digest.count where digest[index] != expected[index] { return false }
            return true
        }
    }

    /// The result of the issuer-signed item at `position` in document order (namespaces, then items, as
    /// `issuerSigned.nameSpaces` lists them): the item itself, not the first one of the same name, in constant time.
    /// Nil when the digest algorithm is not supported (nothing was computed).
    func result(at position: Int) -> ItemResult? {
        results.indices.contains(position) ? results[position].result : nil
    }
}
