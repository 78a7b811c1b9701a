#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The address of the socket peer of a connection, as `accept` returned it: never what a request says about itself
/// (`X-Forwarded-For` and the like are not read). Made once per connection.
public struct PeerAddress: Sendable, Hashable, CustomStringConvertible {
    /// The IP address as text: `127.0.0.1`, `::1`. An IPv4 client of a dual-stack (`::`) listener is given in IPv4
    /// form, not as `::ffff:127.0.0.1`. `unknown` for another address family.
    public let host: String
    /// The peer's TCP port, or `nil` for another address family.
    public let port: Int?
    /// `127.0.0.1:51234`, `[::1]:51234` (`host` alone without a port).
    public let description: String

    /// An address from its parts.
    public init(host: String, port: Int?) {
        self.host = host
        self.port = port
        if let port {
            description = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        } else {
            description = host
        }
    }

    /// The address in a `sockaddr_storage` filled by `accept` or `getpeername`.
    init(_ storage: sockaddr_storage) {
        var s = storage
        switch Int32(s.ss_family) {
        case AF_INET:
            let (address, port) = withUnsafePointer(to: &s) { p in
                p.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { ($0.pointee.sin_addr, $0.pointee.sin_port) }
            }
            self.init(host: Self.text(AF_INET, address), port: Int(UInt16(bigEndian: port)))
        case AF_INET6:
            let (address, port) = withUnsafePointer(to: &s) { p in
                p.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { ($0.pointee.sin6_addr, $0.pointee.sin6_port) }
            }
            let bytes = withUnsafeBytes(of: address) { Array($0) }
            if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
                // IPv4-mapped (::ffff:a.b.c.d): the IPv4 address it carries.
                var v4 = in_addr()
                withUnsafeMutableBytes(of: &v4) { $0.copyBytes(from: bytes[12..<16]) }
                self.init(host: Self.text(AF_INET, v4), port: Int(UInt16(bigEndian: port)))
            } else {
                self.init(host: Self.text(AF_INET6, address), port: Int(UInt16(bigEndian: port)))
            }
        default:
            self.init(host: "unknown", port: nil)
        }
    }

    /// `inet_ntop` of an `in_addr` or `in6_addr`.
    private static func text<Address>(_ family: Int32, _ address: Address) -> String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        let written = withUnsafeBytes(of: address) { bytes in
            inet_ntop(family, bytes.baseAddress, &buffer, socklen_t(buffer.count)) != nil
        }
        guard written else { return "unknown" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
