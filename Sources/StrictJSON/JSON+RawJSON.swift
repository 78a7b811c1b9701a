extension JSON {
    /// A decoded document written back out: the same values, object members in name order (a decoded object keeps
    /// no order).
    public init(_ raw: RawJSON) {
        switch raw {
        case .string(let text): self = .string(text)
        case .integer(let value): self = .int(value)
        case .double(let value): self = .double(value)
        case .bool(let value): self = .bool(value)
        case .null: self = .null
        case .array(let items): self = .array(items.map(JSON.init))
        case .object(let members): self = .object(members.sorted { $0.key < $1.key }.map { ($0.key, JSON($0.value)) })
        }
    }
}
