import Encodings
import SDJWTVC
import StrictJSON

/// A request's `transaction_data` (OpenID4VP 1.0 §5.1, §8.4): typed objects the holder's key must approve, each sent
/// as the base64url string of its compact JSON. The strings are made once, here, and kept exactly: they are what the
/// wallet hashes and what an answer is compared with.
public struct TransactionData: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        /// base64url (no padding) of the entry's compact JSON, exactly as sent.
        public let encoded: String
        public let type: String
        public let credentialIds: [String]
        /// `transaction_data_hashes_alg`, or nil when absent (sha-256 only).
        public let hashAlgorithms: [TransactionDataHashAlgorithm]?
    }

    /// Most entries in one request.
    public static let maximumEntries = 8
    /// Most bytes of one entry's compact JSON, and of all of them together.
    public static let maximumEntryBytes = 4_096
    public static let maximumTotalBytes = 16_384
    /// Most ids in one `credential_ids`.
    public static let maximumCredentialIds = 16
    /// Most bytes of a `type` value.
    public static let maximumTypeBytes = 256

    public let entries: [Entry]
    /// Whether reports carry each approved entry's decoded object (`transactionDataReport: "objects"`).
    public let reportsObjects: Bool

    /// The strings, in order: the request's `transaction_data` parameter.
    public var strings: [String] { entries.map(\.encoded) }

    /// Checks the integrator's `transaction_data` (a JSON array of objects, member order kept) against `policy` and
    /// `query`, and encodes each entry.
    public init(requested: JSON, query: DCQLQuery, policy: TransactionDataPolicy, reportsObjects: Bool = false) throws(TransactionDataRefusal) {
        guard case .array(let items) = requested, !items.isEmpty, items.count <= Self.maximumEntries else {
            throw TransactionDataRefusal(.invalid, "\"transaction_data\" is not an array of 1 to \(Self.maximumEntries) objects")
        }
        var entries: [Entry] = []
        var total = 0
        for (index, item) in items.enumerated() {
            let name = "transaction_data[\(index)]"
            guard case .object(let members) = item else { throw TransactionDataRefusal(.invalid, "\(name) is not an object") }
            let bytes = item.serialized()
            total += bytes.count
            guard bytes.count <= Self.maximumEntryBytes, total <= Self.maximumTotalBytes else {
                throw TransactionDataRefusal(.invalid, "\(name) takes the transaction data over \(Self.maximumEntryBytes) bytes per entry "
                                             + "or \(Self.maximumTotalBytes) in all (as compact JSON)")
            }
            let read = try Self.read(members, name: name)
            try Self.checkCredentialIds(read.credentialIds, name: name, query: query)
            guard let allowed = policy.allowed(read.type) else {
                throw TransactionDataRefusal(.typeNotAllowed, "\(name).type is not a type this service accepts (oid4vp.transactionDataTypes)")
            }
            if let schema = allowed.schema {
                var checked = item
                if let member = allowed.schemaMember {
                    guard let value = members.first(where: { $0.0 == member })?.1 else {
                        throw TransactionDataRefusal(.schemaMismatch, "\(name) has no \"\(member)\", which its type's schema applies to")
                    }
                    checked = value
                }
                if let problem = schema.violation(in: checked) {
                    throw TransactionDataRefusal(.schemaMismatch, "\(name)\(allowed.schemaMember.map { ".\($0)" } ?? ""): \(problem)")
                }
            }
            entries.append(Entry(encoded: Base64URL.encode(bytes), type: read.type, credentialIds: read.credentialIds,
                                 hashAlgorithms: read.hashAlgorithms))
        }
        // One KB-JWT names one algorithm for all it approves: the entries naming a credential must share one.
        for credential in query.credentials {
            let offered = entries.filter { $0.credentialIds.contains(credential.id) }.map { Set($0.hashAlgorithms ?? [.default]) }
            if let first = offered.first, offered.dropFirst().reduce(first, { $0.intersection($1) }).isEmpty {
                throw TransactionDataRefusal(.invalid, "the entries naming \"\(credential.id)\" offer no hash algorithm in common, "
                                             + "so no KB-JWT could approve them all (its transaction_data_hashes_alg is one)")
            }
        }
        self.entries = entries
        self.reportsObjects = reportsObjects
    }

    /// The strings a session kept, read back (nil when one is not an entry this type wrote).
    public init?(stored: [String], reportsObjects: Bool) {
        var entries: [Entry] = []
        for text in stored {
            guard let bytes = Base64URL.decodeBytes(text), case .object(let members)? = try? JSONParser.parse(bytes),
                  let read = try? Self.read(members, name: "") else { return nil }
            entries.append(Entry(encoded: text, type: read.type, credentialIds: read.credentialIds, hashAlgorithms: read.hashAlgorithms))
        }
        guard !entries.isEmpty else { return nil }
        self.entries = entries
        self.reportsObjects = reportsObjects
    }

    /// What the presentation answering credential query `credential` may approve: the entries naming it, in order;
    /// required when it alone can approve one (named alone, and not `multiple`).
    public func expectation(for credential: DCQLQuery.Credential) -> TransactionDataExpectation {
        TransactionDataExpectation(entries: entries.enumerated().compactMap { index, entry in
            guard entry.credentialIds.contains(credential.id) else { return nil }
            return .init(index: index, encoded: entry.encoded, type: entry.type, hashAlgorithms: entry.hashAlgorithms,
                         required: entry.credentialIds == [credential.id] && !credential.multiple)
        }, reportsObjects: reportsObjects)
    }

    // MARK: Reading one entry

    static func read(_ members: [(String, JSON)], name: String) throws(TransactionDataRefusal)
        -> (type: String, credentialIds: [String], hashAlgorithms: [TransactionDataHashAlgorithm]?)
    {
        func member(_ key: String) -> JSON? { members.first { $0.0 == key }?.1 }
        guard case .string(let type)? = member("type"), !type.isEmpty, type.utf8.count <= maximumTypeBytes else {
            throw TransactionDataRefusal(.invalid, "\(name).type is not a string of 1 to \(maximumTypeBytes) bytes")
        }
        guard case .array(let idItems)? = member("credential_ids"), !idItems.isEmpty, idItems.count <= Self.maximumCredentialIds else {
            throw TransactionDataRefusal(.invalid, "\(name).credential_ids is not a non-empty array of credential query ids")
        }
        let ids = idItems.compactMap(\.stringValue)
        guard ids.count == idItems.count, Set(ids).count == ids.count else {
            throw TransactionDataRefusal(.invalid, "\(name).credential_ids holds a value that is not a string, or one id twice")
        }
        var algorithms: [TransactionDataHashAlgorithm]?
        if let value = member("transaction_data_hashes_alg") {
            guard case .array(let algorithmItems) = value, !algorithmItems.isEmpty, algorithmItems.count <= 8 else {
                throw TransactionDataRefusal(.invalid, "\(name).transaction_data_hashes_alg is not a non-empty array of algorithm names")
            }
            var read: [TransactionDataHashAlgorithm] = []
            for item in algorithmItems {
                guard let text = item.stringValue, let algorithm = TransactionDataHashAlgorithm(rawValue: text) else {
                    throw TransactionDataRefusal(.invalid, "\(name).transaction_data_hashes_alg names an algorithm other than "
                                                 + TransactionDataHashAlgorithm.allCases.map(\.rawValue).joined(separator: ", "))
                }
                guard !read.contains(algorithm) else {
                    throw TransactionDataRefusal(.invalid, "\(name).transaction_data_hashes_alg names \(text) twice")
                }
                read.append(algorithm)
            }
            algorithms = read
        }
        return (type, ids, algorithms)
    }

    /// Every id names a credential query of this request, and each of those can bind transaction data: `dc+sd-jwt`
    /// with cryptographic holder binding (B.3.3). An mdoc cannot: OpenID4VP 1.0 leaves the element to each type, and
    /// the implementations that chose one disagree (see docs/api/oid4vp.md, "Transaction data").
    static func checkCredentialIds(_ ids: [String], name: String, query: DCQLQuery) throws(TransactionDataRefusal) {
        for id in ids {
            guard let credential = query.credential(id) else {
                throw TransactionDataRefusal(.invalid, "\(name).credential_ids names \"\(id.prefix(64))\", which is no credential query of this request")
            }
            guard let sdJwtVc = credential.sdJwtVc else {
                throw TransactionDataRefusal(.notBindable, "\(name).credential_ids names \"\(id)\", an \(credential.format) credential query: "
                                             + "verifierd binds transaction data only to dc+sd-jwt key-binding JWTs")
            }
            guard sdJwtVc.requireHolderBinding else {
                throw TransactionDataRefusal(.notBindable, "\(name).credential_ids names \"\(id)\", whose query sets "
                                             + "require_cryptographic_holder_binding to false: nothing would sign the transaction")
            }
        }
    }
}
