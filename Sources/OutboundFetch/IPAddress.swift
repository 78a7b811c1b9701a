/// An IPv4 or IPv6 address as connected to, with the ranges a fetch must not reach unless an operator opens them.
public struct IPAddress: Hashable, Sendable, CustomStringConvertible {
    /// 4 bytes (IPv4) or 16 bytes (IPv6), network order.
    public let bytes: [UInt8]

    /// Nil unless `bytes` holds 4 or 16 bytes.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 4 || bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    /// Parses a dotted-quad IPv4 address or an IPv6 address (with `::`, optionally an embedded IPv4 tail, without a
    /// zone); nil for anything else, names included.
    public init?(_ text: some StringProtocol) {
        if let v4 = Self.parseIPv4(Substring(text)) {
            bytes = v4
        } else if let v6 = Self.parseIPv6(Substring(text)) {
            bytes = v6
        } else {
            return nil
        }
    }

    public var isIPv4: Bool { bytes.count == 4 }

    /// The IPv4 address an IPv6 address carries in a form that reaches it (IPv4-mapped `::ffff:0:0/96`,
    /// IPv4-compatible `::/96`, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`); nil otherwise.
    public var embeddedIPv4: IPAddress? {
        guard bytes.count == 16 else { return nil }
        let b = bytes
        if b[0..<10].allSatisfy({ $0 == 0 }) && b[10] == 0xff && b[11] == 0xff { return IPAddress(bytes: Array(b[12..<16])) }
        if b[0..<12].allSatisfy({ $0 == 0 }) && !(b[12] == 0 && b[13] == 0 && b[14] == 0 && b[15] <= 1) {
            return IPAddress(bytes: Array(b[12..<16]))
        }
        if b[0] == 0x00 && b[1] == 0x64 && b[2] == 0xff && b[3] == 0x9b && b[4..<12].allSatisfy({ $0 == 0 }) {
            return IPAddress(bytes: Array(b[12..<16]))
        }
        if b[0] == 0x20 && b[1] == 0x02 { return IPAddress(bytes: Array(b[2..<6])) }
        return nil
    }

    /// Why a fetch may not connect here by default (loopback, private, ...); nil for a public unicast address.
    public var restrictedRange: String? {
        if let embedded = embeddedIPv4, let range = embedded.restrictedRange { return "\(range) (in IPv6 form)" }
        let b = bytes
        if isIPv4 {
            switch (b[0], b[1]) {
            case (0, _): return "unspecified (0.0.0.0/8)"
            case (10, _): return "private (10.0.0.0/8)"
            case (100, 64...127): return "carrier-grade NAT (100.64.0.0/10)"
            case (127, _): return "loopback (127.0.0.0/8)"
            case (169, 254): return "link-local (169.254.0.0/16)"
            case (172, 16...31): return "private (172.16.0.0/12)"
            case (192, 168): return "private (192.168.0.0/16)"
            case (192, 0) where b[2] == 0: return "IETF protocol assignments (192.0.0.0/24)"
            case (198, 18...19): return "benchmarking (198.18.0.0/15)"
            case (224...239, _): return "multicast (224.0.0.0/4)"
            case (240...255, _): return "reserved or broadcast (240.0.0.0/4)"
            default: return nil
            }
        }
        if b.allSatisfy({ $0 == 0 }) { return "unspecified (::)" }
        if b[0..<15].allSatisfy({ $0 == 0 }) && b[15] == 1 { return "loopback (::1)" }
        if b[0] == 0xfe && b[1] & 0xc0 == 0x80 { return "link-local (fe80::/10)" }
        if b[0] == 0xfe && b[1] & 0xc0 == 0xc0 { return "site-local (fec0::/10)" }
        if b[0] & 0xfe == 0xfc { return "unique-local (fc00::/7)" }
        if b[0] == 0xff { return "multicast (ff00::/8)" }
        if b[0..<12].allSatisfy({ $0 == 0 }) || (b[0..<10].allSatisfy({ $0 == 0 }) && b[10] == 0xff && b[11] == 0xff) {
            return "IPv4-mapped or IPv4-compatible (::/96)"
        }
        return nil
    }

    /// Loopback or unspecified, in either family or an IPv6 form of an IPv4 one: an address of this machine.
    public var isLoopbackOrUnspecified: Bool {
        if let embedded = embeddedIPv4 { return embedded.isLoopbackOrUnspecified }
        if isIPv4 { return bytes[0] == 127 || bytes[0] == 0 }
        return bytes[0..<15].allSatisfy({ $0 == 0 }) && bytes[15] <= 1
    }

    public var description: String {
        if isIPv4 { return bytes.map(String.init).joined(separator: ".") }
        var groups: [String] = []
        for index in stride(from: 0, to: 16, by: 2) {
            groups.append(String(UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1]), radix: 16))
        }
        return groups.joined(separator: ":")
    }

    static func parseIPv4(_ text: Substring) -> [UInt8]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var result: [UInt8] = []
        for part in parts {
            guard (1...3).contains(part.count), part.allSatisfy({ $0.isASCII && $0.isNumber }),
                  part.count == 1 || part.first != "0", let value = UInt8(part) else { return nil }
            result.append(value)
        }
        return result
    }

    static func parseIPv6(_ text: Substring) -> [UInt8]? {
        guard text.count >= 2, text.count <= 45, text.contains(":") else { return nil }
        let halves = text.components(separatedBy: "::")
        guard halves.count <= 2 else { return nil }
        func groups(_ part: String, allowIPv4Tail: Bool) -> [UInt8]? {
            if part.isEmpty { return [] }
            var bytes: [UInt8] = []
            let fields = part.split(separator: ":", omittingEmptySubsequences: false)
            for (index, field) in fields.enumerated() {
                if allowIPv4Tail && index == fields.count - 1 && field.contains(".") {
                    guard let v4 = parseIPv4(field) else { return nil }
                    bytes += v4
                } else {
                    guard (1...4).contains(field.count), let value = UInt16(field, radix: 16) else { return nil }
                    bytes += [UInt8(value >> 8), UInt8(value & 0xff)]
                }
            }
            return bytes
        }
        if halves.count == 1 {
            guard let all = groups(halves[0], allowIPv4Tail: true), all.count == 16 else { return nil }
            return all
        }
        guard let head = groups(halves[0], allowIPv4Tail: false), let tail = groups(halves[1], allowIPv4Tail: true),
              head.count + tail.count <= 14 else { return nil }
        return head + [UInt8](repeating: 0, count: 16 - head.count - tail.count) + tail
    }
}
