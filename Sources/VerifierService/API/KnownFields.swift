/// A JSON object of a request whose fields are known: any other field is refused, at the top of a body and in
/// objects nested in it alike. A mistyped field must not silently change what a request means: a `merchantID`
/// would fall back to the configured merchant, an anchor's `doctypes` would leave it trusted for every docType.
protocol KnownFields: Decodable {
    static var fields: Set<String> { get }
}

extension KnownFields {
    /// Throws for a field outside `fields` (the first in sorted order), with its path. A body is decoded through
    /// ``StrictBody``; a nested type calls this first in its `init(from:)`.
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

/// A request body decoded with its unknown fields refused first (so they are reported before a missing one).
struct StrictBody<Body: KnownFields>: Decodable {
    let body: Body

    init(from decoder: any Decoder) throws {
        try Body.refuseUnknownFields(decoder)
        body = try Body(from: decoder)
    }
}

/// How an unknown field travels inside a `DecodingError` to ``RequestDecoding/describe(_:)``.
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
