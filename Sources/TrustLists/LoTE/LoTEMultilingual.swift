import StrictJSON

/// A `multiLangString`: a text in one language.
struct LoTEText: Sendable, Equatable {
    let lang: String
    let value: String

    init(_ json: JSON, at place: String) throws(LoTEError) {
        let object = try LoTEObject(json, at: place, members: ["lang", "value"])
        lang = try object.string("lang")
        value = try object.string("value")
        guard !lang.isEmpty else { throw LoTEObject.malformed("\(place).lang is empty") }
    }

    /// The English value of `texts`, else the first.
    static func english(_ texts: [LoTEText]) -> String {
        (texts.first { $0.lang.lowercased() == "en" } ?? texts.first)?.value ?? ""
    }
}

/// A `NonEmptyMultiLangURI`: a URI for readers of one language.
struct LoTEURI: Sendable, Equatable {
    let lang: String
    let uri: String

    init(_ json: JSON, at place: String) throws(LoTEError) {
        let object = try LoTEObject(json, at: place, members: ["lang", "uriValue"])
        lang = try object.string("lang")
        uri = try object.uri("uriValue")
        guard !lang.isEmpty else { throw LoTEObject.malformed("\(place).lang is empty") }
    }
}
