/// One `host:port` entry of the operator's allowlist (`outbound.allowedDestinations`): a destination a fetch may reach
/// although its address is in a restricted range (loopback, private, ...), and over plain http.
///
/// An IP literal (`127.0.0.1:8443`, `[::1]:8443`) matches the address actually connected to; a name
/// (`status.internal:443`) matches the host a URL names, whatever it resolves to.
public struct AllowedDestination: Hashable, Sendable, CustomStringConvertible {
    public enum Host: Hashable, Sendable {
        case address(IPAddress)
        case name(String)
    }

    public let host: Host
    public let port: Int

    /// Parses `host:port` (IPv6 literals in brackets); nil when it is not exactly that.
    public init?(_ text: String) {
        let hostPart: Substring
        let portPart: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else { return nil }
            hostPart = text[text.index(after: text.startIndex)..<close]
            portPart = text[text.index(close, offsetBy: 2)...]
            guard let address = IPAddress(hostPart), !address.isIPv4 else { return nil }
            host = .address(address)
        } else {
            guard let colon = text.lastIndex(of: ":") else { return nil }
            hostPart = text[..<colon]
            portPart = text[text.index(after: colon)...]
            if let address = IPAddress(hostPart), address.isIPv4 {
                host = .address(address)
            } else {
                guard Self.isHostName(hostPart) else { return nil }
                host = .name(hostPart.lowercased())
            }
        }
        guard !portPart.isEmpty, portPart.count <= 5, portPart.allSatisfy({ $0.isASCII && $0.isNumber }),
              let port = Int(portPart), (1...65535).contains(port) else { return nil }
        self.port = port
    }

    /// Whether this entry opens `address:port` reached for a URL naming `urlHost`.
    func matches(address: IPAddress, port: Int, urlHost: String) -> Bool {
        guard port == self.port else { return false }
        switch host {
        case .address(let allowed): return allowed == address
        case .name(let name): return name == urlHost.lowercased()
        }
    }

    /// Whether this entry names the host and port a URL names (before any connection).
    public func names(urlHost: String, port: Int) -> Bool {
        guard port == self.port else { return false }
        switch host {
        case .address(let allowed): return IPAddress(Self.unbracketed(urlHost)) == allowed
        case .name(let name): return name == urlHost.lowercased()
        }
    }

    public var description: String {
        switch host {
        case .address(let address): return address.isIPv4 ? "\(address):\(port)" : "[\(address)]:\(port)"
        case .name(let name): return "\(name):\(port)"
        }
    }

    static func unbracketed(_ host: String) -> Substring {
        host.hasPrefix("[") && host.hasSuffix("]") ? host.dropFirst().dropLast() : Substring(host)
    }

    static func isHostName(_ text: Substring) -> Bool {
        guard !text.isEmpty, text.count <= 253 else { return false }
        return text.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { label in
            !label.isEmpty && label.count <= 63 && label.first != "-" && label.last != "-"
                && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
        }
    }
}
