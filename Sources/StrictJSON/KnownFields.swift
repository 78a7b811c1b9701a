/// A JSON object of a request whose fields are known: any other field is refused, at the top of a body and in
/// objects nested in it alike. A mistyped field must not silently change what a request means: a `merchantID`
/// would fall back to the configured merchant, an anchor's `doctypes` would leave it trusted for every docType.
///
/// The known fields are the type's coding keys: declare `enum CodingKeys: String, CodingKey, CaseIterable` (the
/// synthesized `Decodable` uses it) and the list cannot drift from what is decoded.
public protocol KnownFields: Decodable {
    associatedtype CodingKeys: CodingKey & CaseIterable
}

extension KnownFields {
    /// Every known field name, sorted (for messages).
    public static var fieldNames: [String] { CodingKeys.allCases.map(\.stringValue).sorted() }

    /// Throws for a field outside the coding keys (the first in sorted order), with its path. A body is decoded
    /// through ``StrictBody``; a nested type calls this first in its `init(from:)`.
    public static func refuseUnknownFields(_ decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: FieldName.self)
        guard let unknown = container.allKeys.filter({ CodingKeys(stringValue: $0.stringValue) == nil })
            .min(by: { $0.stringValue < $1.stringValue })
        else { return }
        throw DecodingError.dataCorrupted(DecodingError.Context(
            codingPath: decoder.codingPath + [unknown],
            debugDescription: UnknownField.marker + fieldNames.joined(separator: ", ")))
    }
}

/// A request body decoded with its unknown fields refused first (so they are reported before a missing one).
public struct StrictBody<Body: KnownFields>: Decodable {
    public let body: Body

    public init(from decoder: any Decoder) throws {
        try Body.refuseUnknownFields(decoder)
        body = try Body(from: decoder)
    }
}

/// How an unknown field travels inside a `DecodingError` to ``StrictJSONBody/describe(_:)``.
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
