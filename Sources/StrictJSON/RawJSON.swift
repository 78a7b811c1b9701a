/// A JSON document as decoded, keeping the difference between integers, floats, booleans and strings.
public enum RawJSON: Sendable, Decodable, Equatable {
    case string(String)
    case integer(Int64)
    case double(Double)
    case bool(Bool)
    case array([RawJSON])
    case object([String: RawJSON])
    case null

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let integer = try? container.decode(Int64.self) {
            self = .integer(integer)
        } else if let double = try? container.decode(Double.self) {
            self = .double(double)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let array = try? container.decode([RawJSON].self) {
            self = .array(array)
        } else {
            self = .object(try container.decode([String: RawJSON].self))
        }
    }
}
