import SDJWT
import StrictJSON

/// Claims path pointers (OpenID4VP 1.0 7) over a processed payload.
enum ClaimsPathPointer {
    /// The values `path` selects in `root`: a name selects that member of each selected object (a missing member
    /// drops it), `null` every element of each selected array, an index that element. Selecting into the wrong type
    /// (a name on a non-object, `null` or an index on a non-array) is an error (7.1): nothing is selected, and the
    /// claim is absent.
    static func select(_ path: [SDJWTVCQuery.PathElement], in root: JSON) -> [JSON] {
        var selected = [root]
        for element in path {
            var next: [JSON] = []
            for value in selected {
                switch (element, value) {
                case (.name(let name), .object):
                    if let member = value[member: name] { next.append(member) }
                case (.all, .array(let items)):
                    next += items
                case (.index(let index), .array(let items)):
                    if index >= 0, index < items.count { next.append(items[index]) }
                default:
                    return []
                }
            }
            selected = next
            if selected.isEmpty { return [] }
        }
        return selected
    }

    /// Whether a value at `path` lies on or under a requested pattern: one is a prefix of the other, names equal and
    /// any index matching an index or `null` (the verifier sees arrays after undisclosed elements are removed, so an
    /// index is judged like `null` for what was requested).
    static func isRequested(_ path: ClaimPath, by patterns: [[SDJWTVCQuery.PathElement]]) -> Bool {
        patterns.contains { pattern in
            zip(path, pattern).allSatisfy { component, element in
                switch (component, element) {
                case (.name(let a), .name(let b)): return a == b
                case (.index, .index), (.index, .all): return true
                default: return false
                }
            }
        }
    }

    /// `root` cut down to what `patterns` select, with the objects and arrays that hold it; nil when nothing.
    static func project(_ root: JSON, _ patterns: [[SDJWTVCQuery.PathElement]]) -> JSON? {
        if patterns.contains(where: \.isEmpty) { return root }
        switch root {
        case .object(let members):
            var kept: [(String, JSON)] = []
            for (name, value) in members {
                let tails = patterns.compactMap { pattern -> [SDJWTVCQuery.PathElement]? in
                    if case .name(name) = pattern[0] { return Array(pattern.dropFirst()) }
                    return nil
                }
                if !tails.isEmpty, let projected = project(value, tails) { kept.append((name, projected)) }
            }
            return kept.isEmpty ? nil : .object(kept)
        case .array(let items):
            var kept: [JSON] = []
            for (index, item) in items.enumerated() {
                let tails = patterns.compactMap { pattern -> [SDJWTVCQuery.PathElement]? in
                    switch pattern[0] {
                    case .all: return Array(pattern.dropFirst())
                    case .index(let wanted) where wanted == index: return Array(pattern.dropFirst())
                    default: return nil
                    }
                }
                if !tails.isEmpty, let projected = project(item, tails) { kept.append(projected) }
            }
            return kept.isEmpty ? nil : .array(kept)
        default:
            return nil
        }
    }

    /// Exact match of type and value (strings, integers, booleans), as 6.3 asks for `values`.
    static func matches(_ value: JSON, _ wanted: JSON) -> Bool {
        switch (value, wanted) {
        case (.string(let a), .string(let b)): return a == b
        case (.int(let a), .int(let b)): return a == b
        case (.bool(let a), .bool(let b)): return a == b
        default: return false
        }
    }
}
