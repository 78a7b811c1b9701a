/// The ASCII serialization of a web origin (HTML "serialization of an origin"): `scheme://host[:port]`, lower
/// case, with no path, no trailing slash, no user info, query or fragment. It goes into the Annex C transcript
/// byte for byte, so anything else (`https://shop.example/`) would bind the answer to a page that does not exist.
public struct SerializedOrigin: Sendable, Hashable, CustomStringConvertible {
    public let text: String

    public static let maximumLength = 300

    /// Nil when `text` is not a serialized https or http origin.
    public init?(_ text: String) {
        guard text.utf8.count <= Self.maximumLength else { return nil }
        let rest: Substring
        if text.hasPrefix("https://") {
            rest = text.dropFirst(8)
        } else if text.hasPrefix("http://") {
            rest = text.dropFirst(7)
        } else {
            return nil
        }
        var host = rest
        var port: Substring?
        if rest.hasPrefix("[") {
            // An IPv6 literal, e.g. [::1]:8080.
            guard let close = rest.firstIndex(of: "]") else { return nil }
            host = rest[...close]
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return nil }
                port = after.dropFirst()
            }
            guard host.dropFirst().dropLast().allSatisfy({ $0.isHexDigit && !$0.isUppercase || $0 == ":" || $0 == "." }),
                  host.count > 2 else { return nil }
        } else {
            if let colon = rest.firstIndex(of: ":") {
                host = rest[..<colon]
                port = rest[rest.index(after: colon)...]
            }
            guard !host.isEmpty, !host.hasPrefix("."), !host.hasSuffix("."), !host.contains(".."),
                  host.utf8.allSatisfy({ (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2D || $0 == 0x2E })
            else { return nil }
        }
        if let port {
            // Browsers omit default ports and never write leading zeros.
            guard (1...5).contains(port.count), port.allSatisfy(\.isASCII), port.allSatisfy(\.isNumber),
                  !port.hasPrefix("0"), let number = Int(port), number <= 65535 else { return nil }
            if text.hasPrefix("https://") && number == 443 || text.hasPrefix("http://") && number == 80 { return nil }
        }
        self.text = text
    }

    public var description: String { text }
}
