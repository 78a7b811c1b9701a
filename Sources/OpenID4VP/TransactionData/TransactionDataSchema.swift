import Foundation
import StrictJSON

/// An operator's JSON Schema for one transaction data type, read strictly and applied to each entry of that type.
///
/// The keywords of JSON Schema 2020-12 that transaction data types are written with (the EUDI TS12 payment models, the
/// CSC / ETSI TS 119 432 approval requests): `type`, `enum`, `const`; `properties`, `required`,
/// `additionalProperties`, `minProperties`, `maxProperties`; `items`, `minItems`, `maxItems`, `uniqueItems`;
/// `minLength`, `maxLength` (in Unicode scalars), `pattern` (a regular expression searched, not anchored);
/// `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`; `allOf`, `anyOf`, `oneOf`, `not`; `$defs` with
/// local `$ref` (`#/$defs/<name>`). Annotations are read and ignored: `$schema`, `$id`, `$comment`, `title`,
/// `description`, `examples`, `default`, `deprecated`, `readOnly`, `writeOnly`, and `format` (an annotation in
/// 2020-12). Any other keyword refuses the schema when it is loaded, so that a rule the operator wrote is never
/// silently skipped.
public struct TransactionDataSchema: Sendable {
    /// Why a schema file was refused, for the configuration error.
    public struct Invalid: Error, Sendable, Equatable {
        public let detail: String
    }

    /// Deepest nesting of schemas, and of the instance checked against them.
    public static let maximumDepth = 32

    indirect enum Node: Sendable {
        case always(Bool)
        case rules(Rules)
    }

    struct Rules: Sendable {
        var types: Set<String>?
        var enumeration: [JSON]?
        var constant: JSON?
        var properties: [(String, Node)] = []
        var required: [String] = []
        var additionalProperties: Node?
        var minProperties: Int?
        var maxProperties: Int?
        var items: Node?
        var minItems: Int?
        var maxItems: Int?
        var uniqueItems = false
        var minLength: Int?
        var maxLength: Int?
        var pattern: NSRegularExpressionBox?
        var minimum: Double?
        var maximum: Double?
        var exclusiveMinimum: Double?
        var exclusiveMaximum: Double?
        var allOf: [Node] = []
        var anyOf: [Node] = []
        var oneOf: [Node] = []
        var not: Node?
        var reference: String?
    }

    let root: Node
    let definitions: [String: Node]

    static let annotations: Set<String> = ["$schema", "$id", "$comment", "title", "description", "examples", "default",
                                           "deprecated", "readOnly", "writeOnly", "format"]
    static let typeNames: Set<String> = ["object", "array", "string", "number", "integer", "boolean", "null"]

    /// Reads a schema document (strict JSON: no repeated names, bounded depth).
    public init(bytes: [UInt8]) throws(Invalid) {
        let document: JSON
        do { document = try JSONParser.parse(bytes, limits: .init(maximumDepth: Self.maximumDepth * 2, maximumValues: 65_536)) } catch {
            throw Invalid(detail: "not strict JSON: \(error)")
        }
        var definitions: [String: Node] = [:]
        if case .object(let members) = document, let defs = members.first(where: { $0.0 == "$defs" })?.1 {
            guard case .object(let entries) = defs else { throw Invalid(detail: "$defs is not an object") }
            for (name, schema) in entries { definitions[name] = try Self.node(schema, path: "$defs/\(name)", depth: 1) }
        }
        root = try Self.node(document, path: "", depth: 0, topLevel: true)
        self.definitions = definitions
        for reference in Self.references(root) + definitions.values.flatMap(Self.references) where definitions[reference] == nil {
            throw Invalid(detail: "$ref names #/$defs/\(reference), which is not defined")
        }
    }

    /// Nil when `value` is valid; else where and why it is not (a path like `payload.amount`; no value is quoted).
    public func violation(in value: JSON) -> String? {
        check(value, against: root, path: "", depth: 0, references: 0)
    }

    // MARK: Reading the schema

    static func node(_ schema: JSON, path: String, depth: Int, topLevel: Bool = false) throws(Invalid) -> Node {
        guard depth <= maximumDepth else { throw Invalid(detail: "nested deeper than \(maximumDepth) at \(location(path))") }
        switch schema {
        case .bool(let value): return .always(value)
        case .object(let members):
            var rules = Rules()
            for (keyword, value) in members {
                let here = path.isEmpty ? keyword : "\(path)/\(keyword)"
                func count() throws(Invalid) -> Int {
                    guard case .int(let number) = value, number >= 0, number <= Int64(Int32.max) else {
                        throw Invalid(detail: "\(location(here)) is not a non-negative integer")
                    }
                    return Int(number)
                }
                func number() throws(Invalid) -> Double {
                    switch value {
                    case .int(let integer): return Double(integer)
                    case .double(let double): return double
                    default: throw Invalid(detail: "\(location(here)) is not a number")
                    }
                }
                func schemas() throws(Invalid) -> [Node] {
                    guard case .array(let items) = value, !items.isEmpty else { throw Invalid(detail: "\(location(here)) is not a non-empty array of schemas") }
                    var nodes: [Node] = []
                    for (index, item) in items.enumerated() { nodes.append(try node(item, path: "\(here)/\(index)", depth: depth + 1)) }
                    return nodes
                }
                switch keyword {
                case _ where annotations.contains(keyword): continue
                case "$defs":
                    guard topLevel else { throw Invalid(detail: "\(location(here)): $defs is read at the top level only") }
                case "$ref":
                    guard case .string(let text) = value, text.hasPrefix("#/$defs/"), text.count > 8 else {
                        throw Invalid(detail: "\(location(here)) is not a local reference #/$defs/<name>")
                    }
                    rules.reference = String(text.dropFirst(8))
                case "type":
                    var names: [String] = []
                    switch value {
                    case .string(let name): names = [name]
                    case .array(let items) where items.allSatisfy({ $0.stringValue != nil }): names = items.compactMap(\.stringValue)
                    default: break
                    }
                    guard !names.isEmpty, names.allSatisfy(typeNames.contains) else {
                        throw Invalid(detail: "\(location(here)) is not a known type name or a non-empty array of them")
                    }
                    rules.types = Set(names)
                case "enum":
                    guard case .array(let items) = value, !items.isEmpty else { throw Invalid(detail: "\(location(here)) is not a non-empty array") }
                    rules.enumeration = items
                case "const": rules.constant = value
                case "properties":
                    guard case .object(let entries) = value else { throw Invalid(detail: "\(location(here)) is not an object") }
                    for (name, schema) in entries {
                        rules.properties.append((name, try node(schema, path: "\(here)/\(name)", depth: depth + 1)))
                    }
                case "required":
                    guard case .array(let items) = value else { throw Invalid(detail: "\(location(here)) is not an array of names") }
                    let names = items.compactMap(\.stringValue)
                    guard names.count == items.count, Set(names).count == names.count else { throw Invalid(detail: "\(location(here)) is not an array of distinct names") }
                    rules.required = names
                case "additionalProperties": rules.additionalProperties = try node(value, path: here, depth: depth + 1)
                case "minProperties": rules.minProperties = try count()
                case "maxProperties": rules.maxProperties = try count()
                case "items": rules.items = try node(value, path: here, depth: depth + 1)
                case "minItems": rules.minItems = try count()
                case "maxItems": rules.maxItems = try count()
                case "uniqueItems":
                    guard case .bool(let flag) = value else { throw Invalid(detail: "\(location(here)) is not a boolean") }
                    rules.uniqueItems = flag
                case "minLength": rules.minLength = try count()
                case "maxLength": rules.maxLength = try count()
                case "pattern":
                    guard case .string(let text) = value, let expression = try? NSRegularExpression(pattern: text) else {
                        throw Invalid(detail: "\(location(here)) is not a regular expression")
                    }
                    rules.pattern = NSRegularExpressionBox(expression)
                case "minimum": rules.minimum = try number()
                case "maximum": rules.maximum = try number()
                case "exclusiveMinimum": rules.exclusiveMinimum = try number()
                case "exclusiveMaximum": rules.exclusiveMaximum = try number()
                case "allOf": rules.allOf = try schemas()
                case "anyOf": rules.anyOf = try schemas()
                case "oneOf": rules.oneOf = try schemas()
                case "not": rules.not = try node(value, path: here, depth: depth + 1)
                default:
                    throw Invalid(detail: "\(location(here)): keyword \"\(keyword.prefix(64))\" is not supported (so its rule could not be enforced)")
                }
            }
            return .rules(rules)
        default:
            throw Invalid(detail: "\(location(path)) is neither a schema object nor a boolean")
        }
    }

    static func location(_ path: String) -> String { path.isEmpty ? "the schema" : "#/\(path)" }

    static func references(_ node: Node) -> [String] {
        guard case .rules(let rules) = node else { return [] }
        var found = rules.reference.map { [$0] } ?? []
        var children = rules.properties.map(\.1) + rules.allOf + rules.anyOf + rules.oneOf
        children += [rules.additionalProperties, rules.items, rules.not].compactMap { $0 }
        for child in children { found += references(child) }
        return found
    }

    // MARK: Checking a value

    /// Most `$ref` hops on one path (a schema that refers to itself without consuming the instance stops here).
    static let maximumReferences = 64

    func check(_ value: JSON, against node: Node, path: String, depth: Int, references: Int) -> String? {
        let at = path.isEmpty ? "the object" : path
        guard depth <= Self.maximumDepth else { return "\(at) is nested deeper than \(Self.maximumDepth)" }
        let rules: Rules
        switch node {
        case .always(true): return nil
        case .always(false): return "\(at) is not allowed"
        case .rules(let read): rules = read
        }
        if let reference = rules.reference, let target = definitions[reference] {
            guard references < Self.maximumReferences else { return "\(at): $ref chain longer than \(Self.maximumReferences)" }
            if let problem = check(value, against: target, path: path, depth: depth, references: references + 1) { return problem }
        }
        if let types = rules.types, !types.contains(where: { Self.value(value, isOfType: $0) }) {
            return "\(at) is not of type \(types.sorted().joined(separator: " or "))"
        }
        if let enumeration = rules.enumeration, !enumeration.contains(where: { Self.equal($0, value) }) { return "\(at) is not one of the allowed values" }
        if let constant = rules.constant, !Self.equal(constant, value) { return "\(at) is not the required value" }
        switch value {
        case .object(let members):
            if let minimum = rules.minProperties, members.count < minimum { return "\(at) has fewer than \(minimum) members" }
            if let maximum = rules.maxProperties, members.count > maximum { return "\(at) has more than \(maximum) members" }
            for name in rules.required where !members.contains(where: { $0.0 == name }) { return "\(at) lacks required member \"\(name)\"" }
            for (name, member) in members {
                let child = path.isEmpty ? name : "\(path).\(name)"
                if let schema = rules.properties.first(where: { $0.0 == name })?.1 {
                    if let problem = check(member, against: schema, path: child, depth: depth + 1, references: references) { return problem }
                } else if let additional = rules.additionalProperties {
                    if case .always(false) = additional { return "\(at) has member \"\(name.prefix(64))\", which the schema does not allow" }
                    if let problem = check(member, against: additional, path: child, depth: depth + 1, references: references) { return problem }
                }
            }
        case .array(let items):
            if let minimum = rules.minItems, items.count < minimum { return "\(at) has fewer than \(minimum) items" }
            if let maximum = rules.maxItems, items.count > maximum { return "\(at) has more than \(maximum) items" }
            if rules.uniqueItems {
                for index in items.indices where items[..<index].contains(where: { Self.equal($0, items[index]) }) {
                    return "\(at) repeats an item"
                }
            }
            if let schema = rules.items {
                for (index, item) in items.enumerated() {
                    if let problem = check(item, against: schema, path: "\(path)[\(index)]", depth: depth + 1, references: references) { return problem }
                }
            }
        case .string(let text):
            let length = text.unicodeScalars.count
            if let minimum = rules.minLength, length < minimum { return "\(at) is shorter than \(minimum) characters" }
            if let maximum = rules.maxLength, length > maximum { return "\(at) is longer than \(maximum) characters" }
            if let pattern = rules.pattern, !pattern.matches(text) { return "\(at) does not match the schema's pattern" }
        case .int, .double:
            let number = Self.number(value) ?? 0
            if let minimum = rules.minimum, number < minimum { return "\(at) is below the minimum" }
            if let maximum = rules.maximum, number > maximum { return "\(at) is above the maximum" }
            if let minimum = rules.exclusiveMinimum, number <= minimum { return "\(at) is not above the exclusive minimum" }
            if let maximum = rules.exclusiveMaximum, number >= maximum { return "\(at) is not below the exclusive maximum" }
        case .bool, .null:
            break
        }
        for schema in rules.allOf {
            if let problem = check(value, against: schema, path: path, depth: depth + 1, references: references) { return problem }
        }
        if !rules.anyOf.isEmpty,
           !rules.anyOf.contains(where: { check(value, against: $0, path: path, depth: depth + 1, references: references) == nil }) {
            return "\(at) matches none of the schema's anyOf alternatives"
        }
        if !rules.oneOf.isEmpty {
            let matching = rules.oneOf.filter { check(value, against: $0, path: path, depth: depth + 1, references: references) == nil }.count
            if matching != 1 { return "\(at) matches \(matching) of the schema's oneOf alternatives, not exactly one" }
        }
        if let not = rules.not, check(value, against: not, path: path, depth: depth + 1, references: references) == nil {
            return "\(at) matches a schema it must not"
        }
        return nil
    }

    static func number(_ value: JSON) -> Double? {
        switch value {
        case .int(let integer): return Double(integer)
        case .double(let double): return double
        default: return nil
        }
    }

    static func value(_ value: JSON, isOfType type: String) -> Bool {
        switch (type, value) {
        case ("object", .object), ("array", .array), ("string", .string), ("boolean", .bool), ("null", .null): return true
        case ("number", .int), ("number", .double), ("integer", .int): return true
        case ("integer", .double(let double)): return double.rounded() == double
        default: return false
        }
    }

    /// JSON equality as JSON Schema defines it: numbers by value, objects regardless of member order.
    static func equal(_ lhs: JSON, _ rhs: JSON) -> Bool {
        if let left = number(lhs), let right = number(rhs) { return left == right }
        switch (lhs, rhs) {
        case (.object(let left), .object(let right)):
            guard left.count == right.count else { return false }
            return left.allSatisfy { member in right.contains { $0.0 == member.0 && equal($0.1, member.1) } }
        case (.array(let left), .array(let right)):
            return left.count == right.count && zip(left, right).allSatisfy { equal($0, $1) }
        default:
            return lhs == rhs
        }
    }
}

/// A compiled regular expression, searched (not anchored) in a string as JSON Schema's `pattern` is.
/// `NSRegularExpression` is immutable and thread-safe once made.
struct NSRegularExpressionBox: @unchecked Sendable {
    let expression: NSRegularExpression

    init(_ expression: NSRegularExpression) { self.expression = expression }

    func matches(_ text: String) -> Bool {
        expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }
}
