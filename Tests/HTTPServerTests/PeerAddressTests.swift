#if canImport(Glibc)
import Glibc
#endif
@testable import HTTPServer
import Synchronization
import Testing

extension HTTPServerTests {
    /// The client address on the log record: the socket peer, IPv4 or IPv6, never what the request claims.
    @Suite struct PeerAddresses {
        /// Records handed to the observer.
        final class Records: Sendable {
            private let list = Mutex<[HTTPRequestLogRecord]>([])
            func append(_ record: HTTPRequestLogRecord) { list.withLock { $0.append(record) } }
            var all: [HTTPRequestLogRecord] { list.withLock { $0 } }
        }

        /// The local port of a connected client socket (what the server sees as the peer's port).
        static func localPort(_ fd: Int32) -> Int? {
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let rc = withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
            }
            return rc == 0 ? PeerAddress(storage).port : nil
        }

        /// One request from `clientHost` to a server listening on `serverHost`; the record and the client's port.
        static func exchange(serverHost: String, clientHost: String, extraHeaders: String = "") async throws
            -> (record: HTTPRequestLogRecord, clientPort: Int?)
        {
            let records = Records()
            return try await withServer({ $0.host = serverHost }, observer: { records.append($0) }) { server in
                let port = server.port
                let clientPort = try await offload { () throws -> Int? in
                    let client = try RawClient(port: port, host: clientHost)
                    try client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\(extraHeaders)Connection: close\r\n\r\n")
                    let response = try client.readResponse()
                    guard response.status == 200 else { throw TestError.failed("status \(response.status)") }
                    return Self.localPort(client.fd)
                }
                let record = try #require(records.all.first)
                return (record, clientPort)
            }
        }

        @Test func anIPv4ClientIsItsAddressAndPort() async throws {
            let (record, clientPort) = try await Self.exchange(serverHost: "127.0.0.1", clientHost: "127.0.0.1")
            #expect(record.clientAddress == "127.0.0.1")
            #expect(record.clientPort != nil && record.clientPort == clientPort)
            #expect(record.remoteAddress == "127.0.0.1:\(clientPort ?? -1)")
        }

        @Test func anIPv6ClientIsItsAddressWithoutBrackets() async throws {
            let (record, clientPort) = try await Self.exchange(serverHost: "::1", clientHost: "::1")
            #expect(record.clientAddress == "::1")
            #expect(record.clientPort == clientPort)
            #expect(record.remoteAddress == "[::1]:\(clientPort ?? -1)")
        }

        @Test func anIPv4ClientOfADualStackListenerIsNotShownAsMapped() async throws {
            let (record, _) = try await Self.exchange(serverHost: "::", clientHost: "127.0.0.1")
            #expect(record.clientAddress == "127.0.0.1")
        }

        @Test func forwardingHeadersAreNotBelieved() async throws {
            let (record, _) = try await Self.exchange(
                serverHost: "127.0.0.1", clientHost: "127.0.0.1",
                extraHeaders: "X-Forwarded-For: 203.0.113.7\r\nX-Real-IP: 203.0.113.8\r\nForwarded: for=203.0.113.9\r\n")
            #expect(record.clientAddress == "127.0.0.1")
            #expect(!record.remoteAddress.contains("203.0.113"))
        }

        @Test func addressesFromSocketStructures() {
            var v4 = sockaddr_in()
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = UInt16(8443).bigEndian
            inet_pton(AF_INET, "192.0.2.10", &v4.sin_addr)
            #expect(PeerAddress(Self.storage(v4)) == PeerAddress(host: "192.0.2.10", port: 8443))
            #expect(PeerAddress(Self.storage(v4)).description == "192.0.2.10:8443")

            var v6 = sockaddr_in6()
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = UInt16(443).bigEndian
            inet_pton(AF_INET6, "2001:db8::5", &v6.sin6_addr)
            #expect(PeerAddress(Self.storage(v6)).host == "2001:db8::5")
            #expect(PeerAddress(Self.storage(v6)).description == "[2001:db8::5]:443")

            inet_pton(AF_INET6, "::ffff:198.51.100.4", &v6.sin6_addr)
            #expect(PeerAddress(Self.storage(v6)).host == "198.51.100.4")
            // Not every address with 0xffff in it is IPv4-mapped.
            inet_pton(AF_INET6, "::ffff:0:c633:6404", &v6.sin6_addr)
            let translated = PeerAddress(Self.storage(v6)).host
            #expect(translated != "198.51.100.4" && translated.hasPrefix("::ffff:0:"), "\(translated)")

            #expect(PeerAddress(sockaddr_storage()) == PeerAddress(host: "unknown", port: nil))
            #expect(PeerAddress(host: "unknown", port: nil).description == "unknown")
        }

        static func storage<Address>(_ address: Address) -> sockaddr_storage {
            var storage = sockaddr_storage()
            withUnsafeMutableBytes(of: &storage) { destination in
                withUnsafeBytes(of: address) { destination.copyMemory(from: $0) }
            }
            return storage
        }
    }
}
