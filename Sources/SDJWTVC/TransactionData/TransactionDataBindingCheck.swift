import Encodings
import MDoc
import SDJWT
import StrictJSON

/// `sdjwt.transactionData` (OpenID4VP 1.0 §8.4, B.3.3.1): the KB-JWT's `transaction_data_hashes` are the digests of
/// transaction data strings exactly as sent and addressed to this credential, each once, in request order, under a
/// `transaction_data_hashes_alg` every approved entry offered (named whenever an entry offered a list; sha-256 when
/// absent); an entry only this credential can approve must be among them. Whether every entry of the request was
/// approved exactly once across the answer is the OpenID4VP verdict's to say.
public enum TransactionDataBindingCheck {
    /// Most hashes read from one KB-JWT (a request carries at most a handful of entries).
    public static let maximumHashes = 64

    public static func evaluate(_ expectation: TransactionDataExpectation?, keyBinding: KeyBindingVerifier.Verified?)
        -> (SDJWTVCCheckResult, [ApprovedTransactionData])
    {
        let id = SDJWTVCCheckID.transactionData
        let entries = expectation?.entries ?? []
        func failed(_ code: SDJWTVCErrorCode, _ detail: String) -> (SDJWTVCCheckResult, [ApprovedTransactionData]) {
            (.failed(id, FailureCode(code), detail), [])
        }
        guard let keyBinding else {
            return (.notApplicable(id, entries.isEmpty ? "no transaction data was addressed to this credential"
                                       : "no KB-JWT verified (sdjwt.keyBinding), so nothing it approves counts"), [])
        }
        let hashesValue = keyBinding.transactionDataHashes
        let algorithmValue = keyBinding.transactionDataHashesAlgorithm
        guard !entries.isEmpty else {
            if hashesValue != nil || algorithmValue != nil {
                return failed(.transactionDataHashUnknown, "the KB-JWT approves transaction data, but the request addressed none to this credential")
            }
            return (.notApplicable(id, "no transaction data was addressed to this credential"), [])
        }

        // Approving nothing here: what is left is whether an entry only this credential can approve went unapproved.
        guard let hashesValue else {
            if let missing = entries.first(where: \.required) {
                return failed(.transactionDataHashMissing, "the KB-JWT has no transaction_data_hashes, so it does not approve "
                              + "transaction_data[\(missing.index)] (type \"\(missing.type.prefix(128))\"), which only this credential can approve")
            }
            return (.passed(id, "approves none of the \(entries.count) transaction data entries it may approve"), [])
        }

        // transaction_data_hashes_alg: required when an entry offered a list; else sha-256.
        let listed = entries.contains { $0.hashAlgorithms != nil }
        let algorithm: TransactionDataHashAlgorithm
        switch algorithmValue {
        case nil:
            guard !listed else {
                return failed(.transactionDataHashAlgorithmNotOffered,
                              "the KB-JWT has no transaction_data_hashes_alg, which is required when the request offered transaction_data_hashes_alg")
            }
            algorithm = .default
        case .string(let name)?:
            guard let known = TransactionDataHashAlgorithm(rawValue: name) else {
                return failed(.transactionDataHashAlgorithmNotOffered, "transaction_data_hashes_alg \"\(name.prefix(32))\" was not offered")
            }
            algorithm = known
        default:
            return failed(.transactionDataHashAlgorithmNotOffered, "transaction_data_hashes_alg is not a string")
        }

        var approvals: [ApprovedTransactionData] = []
        do {
            guard case .array(let items) = hashesValue, !items.isEmpty, items.count <= maximumHashes else {
                return failed(.transactionDataHashesMalformed, "transaction_data_hashes is not a non-empty array of at most \(maximumHashes) strings")
            }
            let expected = entries.map { Base64URL.encode(algorithm.digest(Array($0.encoded.utf8))) }
            var lastPosition = -1
            var seen = Set<Int>()
            for (offset, item) in items.enumerated() {
                guard case .string(let text) = item, Base64URL.decodeBytes(text) != nil else {
                    return failed(.transactionDataHashesMalformed, "transaction_data_hashes[\(offset)] is not a base64url string")
                }
                guard let position = expected.firstIndex(of: text) else {
                    return failed(.transactionDataHashUnknown, "transaction_data_hashes[\(offset)] is the \(algorithm.rawValue) digest of no "
                                  + "transaction data string sent for this credential (extra, re-encoded, or hashed otherwise)")
                }
                let entry = entries[position]
                guard seen.insert(position).inserted else {
                    return failed(.transactionDataHashDuplicate, "transaction_data_hashes approves transaction_data[\(entry.index)] twice")
                }
                guard position > lastPosition else {
                    return failed(.transactionDataHashOrder, "transaction_data_hashes is not in the request's order "
                                  + "(transaction_data[\(entry.index)] comes after a later entry)")
                }
                lastPosition = position
                guard entry.offered.contains(algorithm) else {
                    return failed(.transactionDataHashAlgorithmNotOffered, "transaction_data[\(entry.index)] offered "
                                  + entry.offered.map(\.rawValue).joined(separator: ", ") + ", not \(algorithm.rawValue)")
                }
                approvals.append(ApprovedTransactionData(index: entry.index, type: entry.type, hashAlgorithm: algorithm, hash: text,
                                                         object: expectation?.reportsObjects == true ? Self.object(entry.encoded) : nil))
            }
        }
        if let missing = entries.first(where: { entry in entry.required && !approvals.contains { $0.index == entry.index } }) {
            return failed(.transactionDataHashMissing, "the KB-JWT does not approve transaction_data[\(missing.index)] "
                          + "(type \"\(missing.type.prefix(128))\"), which only this credential can approve")
        }
        if approvals.isEmpty {
            return (.passed(id, "approves none of the \(entries.count) transaction data entries it may approve"), [])
        }
        return (.passed(id, "approves transaction_data " + approvals.map { "[\($0.index)]" }.joined(separator: ", ")
                            + " with \(algorithm.rawValue)"), approvals)
    }

    /// The entry as JSON (verifierd wrote it, so it parses; nil otherwise).
    static func object(_ encoded: String) -> JSON? {
        guard let bytes = Base64URL.decodeBytes(encoded) else { return nil }
        return try? JSONParser.parse(bytes)
    }
}
