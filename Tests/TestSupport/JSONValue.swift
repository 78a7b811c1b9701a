import Foundation
import StrictJSON

/// A decoded JSON document, for manifest-driven tests: StrictJSON's `RawJSON`, with readers for tests.
public typealias JSONValue = RawJSON

extension RawJSON {
    public static func load(_ url: URL) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: url))
    }

    public subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    public var string: String? { if case .string(let s) = self { return s } else { return nil } }
    public var bool: Bool? { if case .bool(let b) = self { return b } else { return nil } }
    public var array: [JSONValue] { if case .array(let a) = self { return a } else { return [] } }
    public var object: [String: JSONValue] { if case .object(let o) = self { return o } else { return [:] } }
}
