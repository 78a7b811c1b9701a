/// Where a value sits in a processed payload: object member names and array indices from the top.
public typealias ClaimPath = [ClaimPathComponent]

public enum ClaimPathComponent: Sendable, Hashable, CustomStringConvertible {
    case name(String)
    case index(Int)

    public var description: String {
        switch self {
        case .name(let name): return name
        case .index(let index): return "[\(index)]"
        }
    }
}

extension Array where Element == ClaimPathComponent {
    /// ``dotted`` cut to 128 characters, for failure details (names come from the input).
    public var shortDotted: String {
        let text = dotted
        return text.count <= 128 ? text : String(text.prefix(128)) + "…"
    }

    /// `address.street_address`, `nationalities[0]`.
    public var dotted: String {
        var text = ""
        for component in self {
            switch component {
            case .name(let name): text += text.isEmpty ? name : ".\(name)"
            case .index: text += component.description
            }
        }
        return text
    }
}
