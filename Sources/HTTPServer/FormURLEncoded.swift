/// `application/x-www-form-urlencoded` bodies, decoded with the same percent-decoding as request targets.
public enum FormURLEncoded {
    /// The fields of `body`, strictly: every pair is `name=value`, decodes (UTF-8, valid escapes, `+` as space), and
    /// names a field once; at most `maximumFields`. Nil otherwise.
    public static func fields(_ body: [UInt8], maximumFields: Int) -> [String: String]? {
        guard let text = String(validating: body, as: UTF8.self) else { return nil }
        let pairs = text.split(separator: "&", omittingEmptySubsequences: true)
        guard pairs.count <= maximumFields else { return nil }
        var fields: [String: String] = [:]
        for pair in pairs {
            guard let equals = pair.firstIndex(of: "="),
                  let name = RequestTarget.percentDecode(pair[..<equals], plusAsSpace: true),
                  let value = RequestTarget.percentDecode(pair[pair.index(after: equals)...], plusAsSpace: true),
                  fields[name] == nil
            else { return nil }
            fields[name] = value
        }
        return fields
    }
}
