/// A cross-device request's `redirect_uri` (OpenID4VP 1.0 §8.2): where the wallet sends the user once it has
/// answered, with `#response_code=…` appended. It is parsed as an absolute `https` URI (RFC 3986 §3) before it is
/// handed to any wallet: printable ASCII only (no control character, space or other whitespace, no raw non-ASCII),
/// no userinfo, no fragment (the response code is appended as one), a host, and its origin must be one the operator
/// allowed.
public struct RedirectURI: Sendable, Equatable, CustomStringConvertible {
    /// The longest URI accepted, in bytes.
    public static let maximumLength = 2_048

    /// The URI exactly as given (it passed every rule, so nothing in it needs escaping).
    public let text: String
    /// `https://host[:port]`, the host in lower case and the default port left out.
    public let origin: String

    public var description: String { text }

    /// Parses `text`, or says why it is refused.
    public static func parse(_ text: String) -> Result<RedirectURI, RedirectURIProblem> {
        let bytes = Array(text.utf8)
        guard bytes.count <= maximumLength else { return .failure(.tooLong) }
        // RFC 3986 characters only: unreserved, reserved and "%" (checked as pct-encoded below).
        for byte in bytes where !isURICharacter(byte) {
            return .failure(byte < 0x21 || byte == 0x7F ? .controlOrWhitespace : .notURICharacter)
        }
        guard bytes.count > 8, bytes[0..<8].map({ lowercase($0) }) == Array("https://".utf8) else { return .failure(.notHTTPS) }
        let rest = bytes[8...]
        let authorityEnd = rest.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }
            ?? rest.endIndex
        let authority = rest[rest.startIndex..<authorityEnd]
        let tail = rest[authorityEnd...]
        guard !authority.contains(UInt8(ascii: "@")) else { return .failure(.userinfo) }
        guard !tail.contains(UInt8(ascii: "#")) else { return .failure(.fragment) }
        guard percentEncodingIsWellFormed(tail) else { return .failure(.badPercentEncoding) }
        guard let (host, port) = hostAndPort(authority) else { return .failure(.badAuthority) }
        let origin = "https://" + host + (port.map { $0 == 443 ? "" : ":\($0)" } ?? "")
        return .success(RedirectURI(text: text, origin: origin))
    }

    /// Parses `text` and requires its origin to be one of `allowedOrigins` (compared exactly, after the host is
    /// lowercased and a default port dropped).
    public static func parse(_ text: String, allowedOrigins: [String]) -> Result<RedirectURI, RedirectURIProblem> {
        switch parse(text) {
        case .success(let uri) where allowedOrigins.contains(uri.origin): return .success(uri)
        case .success: return .failure(.originNotAllowed)
        case .failure(let problem): return .failure(problem)
        }
    }

    static func lowercase(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }

    static func isAlphaNumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || isDigit(byte)
    }

    static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(lowercase(byte))
    }

    /// RFC 3986 §2: unreserved, gen-delims, sub-delims and "%".
    static func isURICharacter(_ byte: UInt8) -> Bool {
        isAlphaNumeric(byte) || Array("-._~:/?#[]@!$&'()*+,;=%".utf8).contains(byte)
    }

    static func percentEncodingIsWellFormed(_ bytes: ArraySlice<UInt8>) -> Bool {
        var index = bytes.startIndex
        while index < bytes.endIndex {
            guard bytes[index] == UInt8(ascii: "%") else {
                index += 1
                continue
            }
            guard bytes.endIndex - index >= 3, isHexDigit(bytes[index + 1]), isHexDigit(bytes[index + 2]) else { return false }
            index += 3
        }
        return true
    }

    /// The host (a DNS name of letters, digits, `-` and `.`, or a bracketed IPv6 literal) in lower case, and the port.
    static func hostAndPort(_ authority: ArraySlice<UInt8>) -> (String, Int?)? {
        var hostBytes = authority
        var portBytes: ArraySlice<UInt8>?
        if authority.first == UInt8(ascii: "[") {
            guard let close = authority.firstIndex(of: UInt8(ascii: "]")) else { return nil }
            hostBytes = authority[authority.startIndex...close]
            let after = authority[(close + 1)...]
            if !after.isEmpty {
                guard after.first == UInt8(ascii: ":") else { return nil }
                portBytes = after.dropFirst()
            }
            let inner = hostBytes.dropFirst().dropLast()
            guard !inner.isEmpty, inner.allSatisfy({ isHexDigit($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") })
            else { return nil }
        } else {
            if let colon = authority.firstIndex(of: UInt8(ascii: ":")) {
                hostBytes = authority[authority.startIndex..<colon]
                portBytes = authority[(colon + 1)...]
            }
            guard !hostBytes.isEmpty, hostBytes.count <= 253,
                  hostBytes.allSatisfy({ isAlphaNumeric($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") }),
                  hostBytes.first != UInt8(ascii: "."), hostBytes.first != UInt8(ascii: "-")
            else { return nil }
        }
        var port: Int?
        if let portBytes {
            guard !portBytes.isEmpty, portBytes.count <= 5, portBytes.allSatisfy(isDigit),
                  let value = Int(String(decoding: portBytes, as: UTF8.self)), (1...65_535).contains(value) else { return nil }
            port = value
        }
        return (String(decoding: hostBytes.map(lowercase), as: UTF8.self), port)
    }
}

/// Why a `redirect_uri` is refused.
public enum RedirectURIProblem: String, Error, Sendable, Equatable {
    case tooLong = "longer than 2048 bytes"
    case controlOrWhitespace = "contains a control character or whitespace"
    case notURICharacter = "contains a character that is not allowed in a URI (RFC 3986)"
    case notHTTPS = "is not an absolute https URI"
    case userinfo = "has userinfo"
    case fragment = "has a fragment (the response code is appended as one)"
    case badPercentEncoding = "has a malformed percent-encoding"
    case badAuthority = "has no valid host or port"
    case originNotAllowed = "is not on one of oid4vp.allowedOrigins"
}
