import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A one-thread loopback server that answers every connection with the same raw bytes (headers and body exactly as
/// given, then close, after an optional pause): for answers our own HTTP server never sends, such as a body without a
/// Content-Length or a server that stalls.
final class RawLoopbackServer: @unchecked Sendable {
    // @unchecked: `descriptor` and `port` are set once in init; the accept thread only reads them.
    let port: Int
    private let descriptor: Int32

    init(answer: [UInt8], pauseAfterHeaders: TimeInterval = 0, headerLength: Int = 0) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var yes: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, 16) == 0 else { throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        descriptor = listener
        let thread = Thread {
            while true {
                let client = accept(listener, nil, nil)
                if client < 0 { return }
                var request = [UInt8](repeating: 0, count: 4096)
                _ = read(client, &request, request.count)
                let split = headerLength > 0 ? headerLength : answer.count
                answer.withUnsafeBytes { bytes in
                    _ = write(client, bytes.baseAddress!, split)
                    if pauseAfterHeaders > 0 { Thread.sleep(forTimeInterval: pauseAfterHeaders) }
                    if split < answer.count { _ = write(client, bytes.baseAddress! + split, answer.count - split) }
                }
                close(client)
            }
        }
        thread.start()
    }

    func stop() {
        shutdown(descriptor, Int32(SHUT_RDWR))
        close(descriptor)
    }
}
