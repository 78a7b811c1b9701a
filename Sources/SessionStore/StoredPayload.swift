import CBOR

/// The stored form of a session's payload: a CBOR map of named members with its version under `"v"`, so each member
/// is read by its name, and a payload of another version or with other members is refused rather than misread.
public struct StoredPayload {
    /// The members, by name (`"v"` left out).
    private let members: [String: CBORItem]

    /// `members` under `version`, in the order given.
    public static func encode(version: Int64, _ members: [(String, CBOR)]) -> [UInt8] {
        CBOREncoder().encode(.map([CBOR.Pair("v", .unsigned(UInt64(version)))] + members.map { CBOR.Pair(.text($0.0), $0.1) }))
    }

    /// Reads `bytes` written by ``encode(version:_:)`` with this `version` and exactly the member names `expected`.
    public init?(_ bytes: [UInt8], version: Int64, members expected: Set<String>) {
        self.init(bytes, version: version, members: expected, optional: [])
    }

    /// Reads `bytes` written by ``encode(version:_:)`` with this `version`, every member name of `expected`, and no
    /// other than those and `optional` (members added since, which older records lack).
    public init?(_ bytes: [UInt8], version: Int64, members expected: Set<String>, optional: Set<String>) {
        guard let item = try? CBORDecoder().decode(bytes), let pairs = item.mapValue, item["v"]?.intValue == version else {
            return nil
        }
        var members: [String: CBORItem] = [:]
        for pair in pairs {
            guard let name = pair.key.textValue, members.updateValue(pair.value, forKey: name) == nil else { return nil }
        }
        members["v"] = nil
        let names = Set(members.keys)
        guard expected.isSubset(of: names), names.isSubset(of: expected.union(optional)) else { return nil }
        self.members = members
    }

    /// The member named `name`.
    public subscript(name: String) -> CBORItem? { members[name] }

    /// A text member that may be null: `.some(nil)` for null, nil when it is neither text nor null.
    public func optionalText(_ name: String) -> String?? {
        guard let item = members[name] else { return nil }
        if item.isNull { return .some(nil) }
        return item.textValue.map { .some($0) }
    }
}
