#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Sends raw bytes to a loopback port and reads until the server closes or a full response head arrives: for
/// requests URLSession will not make (invented methods, odd targets).
enum RawHTTPClient {
    /// Sends one request with `Connection: close` and returns the status code (0 when none was read).
    static func send(port: Int, _ request: String) -> Int {
        send(port: port, Array(request.utf8))
    }

    /// POSTs a JSON body with `Connection: close` and the harness's integrator token; returns the status code.
    static func post(port: Int, path: String, json: [UInt8]) -> Int {
        let head = "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            + "Authorization: Bearer \(ServiceHarness.integratorToken)\r\n"
            + "Content-Length: \(json.count)\r\nConnection: close\r\n\r\n"
        return send(port: port, Array(head.utf8) + json)
    }

    /// 127.0.0.1:`port` as a socket address.
    static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    static func send(port: Int, _ bytes: [UInt8]) -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return 0 }
        defer { close(fd) }
        var address = loopback(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { return 0 }
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return 0 }
            sent += n
        }
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while response.count < 65_536 {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            response += buffer[0..<n]
        }
        let text = String(decoding: response.prefix(16), as: UTF8.self)
        let parts = text.split(separator: " ")
        return parts.count > 1 ? Int(parts[1]) ?? 0 : 0
    }
}
