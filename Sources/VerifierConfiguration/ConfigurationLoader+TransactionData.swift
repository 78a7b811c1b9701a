import Foundation
import OpenID4VP
import StrictJSON

extension ConfigurationLoader.Values {
    /// `oid4vp.transactionDataTypes`: `[{"type", "schema"?, "schemaMember"?}]`, the transaction data types an integrator
    /// may send; each schema file is read now (strict JSON, supported keywords only), so a rule it states is never
    /// skipped later. Absent: no type, and every request with transaction data is refused.
    func transactionDataPolicy() throws(ConfigurationError) -> TransactionDataPolicy {
        let key = "oid4vp.transactionDataTypes"
        let items = try ConfigurationLoader.array(raw("oid4vp", "transactionDataTypes"), key: key, of: #"{"type", "schema", "schemaMember"}"#)
        var types: [TransactionDataPolicy.AllowedType] = []
        for (index, item) in items.enumerated() {
            let itemKey = "\(key)[\(index)]"
            guard case .object(let members) = item else { throw ConfigurationError(key: itemKey, "must be an object") }
            if let unknown = Set(members.keys).subtracting(["type", "schema", "schemaMember"]).sorted().first {
                throw ConfigurationError(key: "\(itemKey).\(unknown)", "unknown key (expected type, schema, schemaMember)")
            }
            guard case .string(let type)? = members["type"], !type.isEmpty, type.utf8.count <= TransactionData.maximumTypeBytes else {
                throw ConfigurationError(key: "\(itemKey).type", "must be a string of 1 to \(TransactionData.maximumTypeBytes) bytes")
            }
            guard !types.contains(where: { $0.type == type }) else {
                throw ConfigurationError(key: "\(itemKey).type", "type \"\(type)\" is listed twice")
            }
            var schema: TransactionDataSchema?
            switch members["schema"] {
            case nil: break
            case .string(let location)?:
                let file = path(location)
                guard let data = FileManager.default.contents(atPath: file.path), data.count <= 1 << 20 else {
                    throw ConfigurationError(key: "\(itemKey).schema", "cannot read \(file.path) (or it is over 1 MiB)")
                }
                do { schema = try TransactionDataSchema(bytes: Array(data)) } catch {
                    throw ConfigurationError(key: "\(itemKey).schema", "\(file.path): \(error.detail)")
                }
            default: throw ConfigurationError(key: "\(itemKey).schema", "must be the path of a JSON Schema file")
            }
            var schemaMember: String?
            switch members["schemaMember"] {
            case nil: break
            case .string(let name)? where !name.isEmpty && schema != nil: schemaMember = name
            default: throw ConfigurationError(key: "\(itemKey).schemaMember", "must be a member name, and goes with schema")
            }
            types.append(.init(type: type, schema: schema, schemaMember: schemaMember))
        }
        return TransactionDataPolicy(types: types)
    }
}
