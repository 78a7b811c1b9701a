import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One blocking probe of a loopback listener with POSIX sockets (no URLSession: a health check runs every few
/// seconds and must stay small).
struct HealthProbe {
    let host: String
    let port: Int
    let timeoutSeconds: Double

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// `GET /healthz`; healthy when the status line says 200.
    func healthz() -> Result<String, Failure> {
        let fd: Int32
        switch connected() {
        case .success(let socket): fd = socket
        case .failure(let failure): return .failure(failure)
        }
        defer { close(fd) }
        let request = Array("GET /healthz HTTP/1.1\r\nHost: \(hostHeader)\r\nConnection: close\r\n\r\n".utf8)
        guard request.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == request.count else {
            return .failure(Failure(description: "cannot send to \(address): \(String(cString: strerror(errno)))"))
        }
        var answer = [UInt8](repeating: 0, count: 512)
        var count = 0
        while count < answer.count, !answer[..<count].contains(0x0A) {
            let n = answer[count...].withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            count += n
        }
        let statusLine = String(decoding: answer[..<count].prefix { $0 != 0x0D && $0 != 0x0A }, as: UTF8.self)
        guard !statusLine.isEmpty else { return .failure(Failure(description: "no answer from \(address) within \(timeoutSeconds) s")) }
        guard statusLine.hasPrefix("HTTP/1.1 200 ") || statusLine == "HTTP/1.1 200" else {
            return .failure(Failure(description: "\(address)/healthz answered \"\(statusLine.prefix(80))\""))
        }
        return .success("200 from http://\(address)/healthz")
    }

    /// Only whether the port accepts a TCP connection (the TLS listener without a plain health port).
    func connects() -> Result<String, Failure> {
        connected().map { fd in
            close(fd)
            return "\(address) accepts connections (TLS listener; set server.plainHealthPort for an HTTP probe)"
        }
    }

    private var isIPv6: Bool { host.contains(":") }
    private var address: String { isIPv6 ? "[\(host)]:\(port)" : "\(host):\(port)" }
    private var hostHeader: String { address }

    private func connected() -> Result<Int32, Failure> {
        let fd = socket(isIPv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return .failure(Failure(description: "socket: \(String(cString: strerror(errno)))")) }
        var limit = timeval(tv_sec: Int(timeoutSeconds), tv_usec: Int((timeoutSeconds - timeoutSeconds.rounded(.down)) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        let result: Int32
        if isIPv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = in_port_t(UInt16(port).bigEndian)
            inet_pton(AF_INET6, host, &address.sin6_addr)
            result = Self.connect(fd, to: address)
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            inet_pton(AF_INET, host, &address.sin_addr)
            result = Self.connect(fd, to: address)
        }
        guard result == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            return .failure(Failure(description: "cannot connect to \(address): \(reason)"))
        }
        return .success(fd)
    }

    /// connect(2) to a sockaddr_in or sockaddr_in6.
    private static func connect<Address>(_ fd: Int32, to address: Address) -> Int32 {
        withUnsafePointer(to: address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                socketConnect(fd, $0, socklen_t(MemoryLayout<Address>.size))
            }
        }
    }
}

/// connect(2), named apart from ``HealthProbe``'s own `connect`.
private func socketConnect(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
    connect(fd, address, length)
}
