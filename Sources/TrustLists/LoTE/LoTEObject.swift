import Foundation
import StrictJSON

/// One JSON object of a list of trusted entities, read against the members the JSON schema defines for it: a member
/// the schema does not name is refused (the schema closes every object, `ServiceDigitalIdentity` included, which it
/// means to close), and every read checks the member's JSON type. Failures name the member's place in the document.
struct LoTEObject {
    /// Where the object is, e.g. `LoTE.TrustedEntitiesList[2].TrustedEntityInformation`.
    let path: String
    private let members: [String: JSON]

    init(_ value: JSON, at path: String, members allowed: Set<String>) throws(LoTEError) {
        guard case .object(let list) = value else { throw Self.malformed("\(path) is not a JSON object") }
        for (name, _) in list where !allowed.contains(name) {
            throw Self.malformed("\(path) has the member \"\(name.prefix(64))\", which the LoTE schema does not define there")
        }
        self.path = path
        // The parser refuses a name twice in one object; the first one is kept should that ever change.
        members = Dictionary(list, uniquingKeysWith: { first, _ in first })
    }

    static func malformed(_ detail: String) -> LoTEError { LoTEError(.malformed, detail) }

    func place(_ name: String) -> String { "\(path).\(name)" }

    /// Whether the member is present (null included).
    func has(_ name: String) -> Bool { members[name] != nil }

    func value(_ name: String) throws(LoTEError) -> JSON {
        guard let value = members[name] else { throw Self.malformed("\(place(name)) is missing") }
        return value
    }

    func optionalValue(_ name: String) -> JSON? { members[name] }

    // MARK: Scalars

    func string(_ name: String) throws(LoTEError) -> String {
        try Self.string(try value(name), at: place(name))
    }

    func optionalString(_ name: String) throws(LoTEError) -> String? {
        guard let value = members[name] else { return nil }
        return try Self.string(value, at: place(name))
    }

    static func string(_ value: JSON, at place: String) throws(LoTEError) -> String {
        guard case .string(let text) = value else { throw malformed("\(place) is not a string") }
        return text
    }

    /// A URI member (`format: uri`): a non-empty string.
    func uri(_ name: String) throws(LoTEError) -> String {
        try Self.uri(try value(name), at: place(name))
    }

    func optionalURI(_ name: String) throws(LoTEError) -> String? {
        guard let value = members[name] else { return nil }
        return try Self.uri(value, at: place(name))
    }

    static func uri(_ value: JSON, at place: String) throws(LoTEError) -> String {
        let text = try string(value, at: place)
        guard !text.isEmpty else { throw malformed("\(place) is an empty URI") }
        return text
    }

    func integer(_ name: String) throws(LoTEError) -> Int64 {
        guard case .int(let number) = try value(name) else { throw Self.malformed("\(place(name)) is not an integer") }
        return number
    }

    func optionalInteger(_ name: String) throws(LoTEError) -> Int64? {
        guard members[name] != nil else { return nil }
        return try integer(name)
    }

    /// A date-time member: `YYYY-MM-DDThh:mm:ssZ` (TS 119 602 6.1.3), stricter than the schema's `date-time`.
    func dateTime(_ name: String) throws(LoTEError) -> Date {
        let text = try string(name)
        guard let date = LoTEDateTime.parse(text) else {
            throw Self.malformed("\(place(name)) \"\(text.prefix(40))\" is not a date-time of the form YYYY-MM-DDThh:mm:ssZ")
        }
        return date
    }

    func optionalDateTime(_ name: String) throws(LoTEError) -> Date? {
        guard members[name] != nil else { return nil }
        return try dateTime(name)
    }

    // MARK: Structures

    /// An array member with at least one item (every array of the schema has `minItems` 1), at most `maximum`
    /// (over it: `LOTE_TOO_LARGE`).
    func array(_ name: String, maximum: Int? = nil) throws(LoTEError) -> [JSON] {
        guard case .array(let items) = try value(name) else { throw Self.malformed("\(place(name)) is not an array") }
        guard !items.isEmpty else {
            throw Self.malformed("\(place(name)) is an empty array (the schema wants at least one item; leave the member out instead)")
        }
        if let maximum, items.count > maximum {
            throw LoTEError(.tooLarge, "\(place(name)) has \(items.count) items; at most \(maximum) are accepted")
        }
        return items
    }

    func optionalArray(_ name: String, maximum: Int? = nil) throws(LoTEError) -> [JSON]? {
        guard members[name] != nil else { return nil }
        return try array(name, maximum: maximum)
    }

    func object(_ name: String, members allowed: Set<String>) throws(LoTEError) -> LoTEObject {
        try LoTEObject(try value(name), at: place(name), members: allowed)
    }

    func optionalObject(_ name: String, members allowed: Set<String>) throws(LoTEError) -> LoTEObject? {
        guard members[name] != nil else { return nil }
        return try object(name, members: allowed)
    }

    /// Each item of an array member, read by `read` with its place.
    func each<Item>(_ name: String, maximum: Int? = nil, _ read: (JSON, String) throws(LoTEError) -> Item)
        throws(LoTEError) -> [Item]
    {
        var items: [Item] = []
        for (index, item) in try array(name, maximum: maximum).enumerated() {
            items.append(try read(item, "\(place(name))[\(index)]"))
        }
        return items
    }

    func optionalEach<Item>(_ name: String, maximum: Int? = nil, _ read: (JSON, String) throws(LoTEError) -> Item)
        throws(LoTEError) -> [Item]?
    {
        guard members[name] != nil else { return nil }
        return try each(name, maximum: maximum, read)
    }

    // MARK: Multilingual values

    /// A sequence of `multiLangString` (`{"lang", "value"}`).
    func texts(_ name: String) throws(LoTEError) -> [LoTEText] {
        try each(name, LoTEText.init(_:at:))
    }

    func optionalTexts(_ name: String) throws(LoTEError) -> [LoTEText]? {
        try optionalEach(name, LoTEText.init(_:at:))
    }

    /// A sequence of `NonEmptyMultiLangURI` (`{"lang", "uriValue"}`).
    func uris(_ name: String) throws(LoTEError) -> [LoTEURI] {
        try each(name, LoTEURI.init(_:at:))
    }

    func optionalURIs(_ name: String) throws(LoTEError) -> [LoTEURI]? {
        try optionalEach(name, LoTEURI.init(_:at:))
    }
}
