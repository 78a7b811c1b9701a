/// Helpers for the request target: splitting path and query, and percent-decoding.
enum RequestTarget {
    /// Splits `"/a/b?x=1"` into path `"/a/b"` and query `"x=1"`.
    static func split(_ target: String) -> (path: String, query: Substring?) {
        guard let q = target.firstIndex(of: "?") else { return (target, nil) }
        return (String(target[..<q]), target[target.index(after: q)...])
    }

    /// Percent-decodes bytes; `nil` on a malformed escape or a result that is not UTF-8.
    static func percentDecode(_ s: Substring, plusAsSpace: Bool) -> String? {
        var out: [UInt8] = []
        out.reserveCapacity(s.utf8.count)
        var it = s.utf8.makeIterator()
        while let b = it.next() {
            if b == UInt8(ascii: "%") {
                guard let h = it.next(), let l = it.next(), let hv = hexValue(h), let lv = hexValue(l) else { return nil }
                out.append(hv << 4 | lv)
            } else if plusAsSpace && b == UInt8(ascii: "+") {
                out.append(0x20)
            } else {
                out.append(b)
            }
        }
        return String(validating: out, as: UTF8.self)
    }

    /// Parses `a=1&b=2` into decoded items; items that fail to decode are dropped.
    static func queryItems(_ query: Substring?) -> [(name: String, value: String)] {
        guard let query, !query.isEmpty else { return [] }
        var items: [(name: String, value: String)] = []
        for part in query.split(separator: "&", omittingEmptySubsequences: true) {
            let name: Substring
            let value: Substring
            if let eq = part.firstIndex(of: "=") {
                name = part[..<eq]
                value = part[part.index(after: eq)...]
            } else {
                name = part
                value = ""
            }
            if let n = percentDecode(name, plusAsSpace: true), let v = percentDecode(value, plusAsSpace: true) {
                items.append((n, v))
            }
        }
        return items
    }

    static func hexValue(_ b: UInt8) -> UInt8? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return b - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return b - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return b - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
