/// An object nested in a request body (an array element, say) whose fields are known: any other field is refused,
/// as at the top level. A mistyped optional field must not silently change what a request means: an anchor sent
/// with `doctypes` instead of `docTypes` would otherwise be trusted for every document type.
protocol NestedRequestObject: Decodable {
    static var fields: Set<String> { get }
}

extension NestedRequestObject {
    /// Throws for a field outside `fields` (the first in sorted order), with its path; call it first in
    /// `init(from:)`.
    static func refuseUnknownFields(_ decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: FieldName.self)
        guard let unknown = container.allKeys.filter({ !fields.contains($0.stringValue) })
            .min(by: { $0.stringValue < $1.stringValue })
        else { return }
        throw DecodingError.dataCorrupted(DecodingError.Context(
            codingPath: decoder.codingPath + [unknown],
            debugDescription: UnknownField.marker + fields.sorted().joined(separator: ", ")))
    }
}

/// How an unknown nested field travels inside a `DecodingError` to ``RequestDecoding/describe(_:)``.
enum UnknownField {
    static let marker = "unknown field; known: "
}

/// Any field name of a JSON object.
struct FieldName: CodingKey {
    let stringValue: String
    let intValue: Int? = nil

    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
