import Foundation
import Synchronization

/// Where outbound fetches may go. By default: https only, public unicast addresses only, never a port this service
/// listens on at an address of this machine. The allowlist opens exactly the destinations it names (and plain http to
/// them); nothing else on loopback or a private network becomes reachable.
public final class DestinationPolicy: Sendable {
    /// Destinations opened by the operator (`outbound.allowedDestinations`).
    public let allowed: [AllowedDestination]
    /// Redirects followed per fetch, each hop checked again.
    public let maximumRedirects: Int
    /// False: only the allowlist is ever contacted (no public destination is resolved or reached).
    public let allowsPublicDestinations: Bool
    private let listening = Mutex<Set<Int>>([])
    private let localAddresses: Set<IPAddress>

    public init(allowed: [AllowedDestination] = [], maximumRedirects: Int = 3, allowsPublicDestinations: Bool = true) {
        self.allowed = allowed
        self.maximumRedirects = maximumRedirects
        self.allowsPublicDestinations = allowsPublicDestinations
        localAddresses = Self.interfaceAddresses()
    }

    /// The ports this service listens on: a fetch never connects to them at an address of this machine, allowlisted
    /// or not. Port 0 (chosen when listening starts) is not a port yet and is left out.
    public func refuse(listeningPorts ports: some Sequence<Int>) {
        listening.withLock { $0.formUnion(ports.filter { $0 > 0 }) }
    }

    public var listeningPorts: Set<Int> { listening.withLock { $0 } }

    /// Why a URL may not be fetched before any connection (scheme, host form, downgrade); nil when it may.
    public func refusal(scheme: String, host: String, port: Int, previousScheme: String?) -> String? {
        let listed = allowed.contains(where: { $0.names(urlHost: host, port: port) })
        if !listed {
            if !allowsPublicDestinations {
                return "\(host):\(port) is not in outbound.allowedDestinations, and outbound.publicDestinations is false"
            }
            if let suffix = Self.specialUseSuffix(of: host) {
                return "\(host) is a special-use name (RFC 6761 .\(suffix)): never resolved unless outbound.allowedDestinations names it"
            }
        }
        switch scheme {
        case "https":
            break
        case "http":
            if previousScheme == "https" { return "a redirect from https to http is refused" }
            guard listed else {
                return "http is refused: only https, or a destination listed in outbound.allowedDestinations"
            }
        default:
            return "the scheme \(scheme) is refused: only https"
        }
        return nil
    }

    /// The special-use top-level domain (RFC 6761, RFC 6762, RFC 7686) a host name ends in, if any: names that are
    /// never a public destination, whose lookup would only leak the query to a resolver.
    static func specialUseSuffix(of host: String) -> String? {
        var name = host.lowercased()
        if name.hasSuffix(".") { name.removeLast() }
        let last = name.split(separator: ".").last.map(String.init) ?? name
        return ["example", "invalid", "test", "local", "onion"].contains(last) ? last : nil
    }

    /// Why the connection to `address:port` (made for a URL naming `urlHost`) is refused; nil when it may proceed.
    /// Called with the address libcurl is about to connect to, after its own resolution.
    public func refusal(connectingTo address: IPAddress, port: Int, urlHost: String) -> String? {
        let local = address.isLoopbackOrUnspecified || localAddresses.contains(address)
            || address.embeddedIPv4.map { localAddresses.contains($0) } == true
        if local && listeningPorts.contains(port) {
            return "\(Self.endpoint(address, port)) is this service's own listening port"
        }
        if allowed.contains(where: { $0.matches(address: address, port: port, urlHost: urlHost) }) { return nil }
        if let range = address.restrictedRange {
            return "\(Self.endpoint(address, port)) is \(range); only outbound.allowedDestinations opens such an address"
        }
        if local { return "\(Self.endpoint(address, port)) is an address of this machine" }
        return nil
    }

    static func endpoint(_ address: IPAddress, _ port: Int) -> String {
        address.isIPv4 ? "\(address):\(port)" : "[\(address)]:\(port)"
    }

    /// The addresses of this machine's interfaces.
    static func interfaceAddresses() -> Set<IPAddress> {
        var result = Set<IPAddress>()
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return result }
        defer { freeifaddrs(list) }
        var cursor: UnsafeMutablePointer<ifaddrs>? = first
        while let entry = cursor {
            if let address = entry.pointee.ifa_addr {
                switch Int32(address.pointee.sa_family) {
                case AF_INET:
                    address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { pointer in
                        var raw = pointer.pointee.sin_addr
                        let bytes = withUnsafeBytes(of: &raw) { Array($0) }
                        if let ip = IPAddress(bytes: bytes) { result.insert(ip) }
                    }
                case AF_INET6:
                    address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                        var raw = pointer.pointee.sin6_addr
                        let bytes = withUnsafeBytes(of: &raw) { Array($0) }
                        if let ip = IPAddress(bytes: bytes) { result.insert(ip) }
                    }
                default:
                    break
                }
            }
            cursor = entry.pointee.ifa_next
        }
        return result
    }
}
