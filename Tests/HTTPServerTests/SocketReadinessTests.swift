#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Synchronization
import Testing
@testable import HTTPServer

extension HTTPServerTests {
    /// The readiness set that replaced a Dispatch source per connection (libdispatch's epoll backend frees a hung-up
    /// source's bookkeeping off its manager thread: scripts/ci/reset-storm.py crashed the service with it).
    @Suite struct SocketReadinessTests {
        /// Two connected local stream sockets, closed when the pair goes.
        final class SocketPair: @unchecked Sendable {
            let local: Int32
            private(set) var peer: Int32
            init() throws {
                var fds: [Int32] = [0, 0]
                guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0 else {
                    throw TestError.failed("socketpair: errno \(errno)")
                }
                local = fds[0]
                peer = fds[1]
                _ = fcntl(local, F_SETFL, fcntl(local, F_GETFL, 0) | O_NONBLOCK)
            }
            func sendFromPeer(_ text: String) { _ = Array(text.utf8).withUnsafeBytes { send(peer, $0.baseAddress, $0.count, 0) } }
            func closePeer() { if peer >= 0 { Glibc.close(peer); peer = -1 } }
            deinit { Glibc.close(local); if peer >= 0 { Glibc.close(peer) } }
        }

        /// Reports, in order, as they reach the handler.
        final class Reports: Sendable {
            private let received = Mutex<[SocketReadiness.Events]>([])
            var handler: SocketReadiness.Handler { { events in self.received.withLock { $0.append(events) } } }
            var all: [SocketReadiness.Events] { received.withLock { $0 } }

            /// Waits (bounded, 5 s) until `count` reports have arrived.
            func wait(for count: Int) async throws -> [SocketReadiness.Events] {
                for _ in 0..<500 where all.count < count { try await Task.sleep(for: .milliseconds(10)) }
                return all
            }
        }

        @Test func aSocketReportsOnceThenStaysQuietUntilArmedAgain() async throws {
            let readiness = try SocketReadiness(targetQueue: .global())
            defer { readiness.close() }
            let pair = try SocketPair()
            let reports = Reports()
            let registration = try #require(readiness.register(pair.local, interest: .readable, handler: reports.handler))
            pair.sendFromPeer("a")
            let first = try await reports.wait(for: 1)
            #expect(first.count == 1 && first[0].contains(.readable))
            // The byte is still unread: a level-triggered source would report again and again. One-shot: quiet.
            try await Task.sleep(for: .milliseconds(150))
            #expect(reports.all.count == 1)
            #expect(readiness.arm(registration, for: .readable))
            let second = try await reports.wait(for: 2)
            #expect(second.count == 2 && second[1].contains(.readable), "arming again reports what is still there")
        }

        @Test func aSocketArmedForWritingReportsRoomToWrite() async throws {
            let readiness = try SocketReadiness(targetQueue: .global())
            defer { readiness.close() }
            let pair = try SocketPair()
            let reports = Reports()
            _ = try #require(readiness.register(pair.local, interest: .writable, handler: reports.handler))
            let got = try await reports.wait(for: 1)
            #expect(got.count == 1 && got[0] == .writable)
        }

        @Test func aRemovedSocketIsNeverReported() async throws {
            let readiness = try SocketReadiness(targetQueue: .global())
            defer { readiness.close() }
            let pair = try SocketPair()
            let reports = Reports()
            let registration = try #require(readiness.register(pair.local, interest: [], handler: reports.handler))
            #expect(readiness.registeredCount == 1)
            readiness.remove(registration)
            #expect(readiness.registeredCount == 0)
            pair.sendFromPeer("a")
            pair.closePeer()
            try await Task.sleep(for: .milliseconds(150))
            #expect(reports.all.isEmpty)
            #expect(!readiness.arm(registration, for: .readable), "the kernel no longer knows the socket")
        }

        @Test func aHangUpReachesEvenASocketArmedForNothing() async throws {
            let readiness = try SocketReadiness(targetQueue: .global())
            defer { readiness.close() }
            let pair = try SocketPair()
            let reports = Reports()
            _ = try #require(readiness.register(pair.local, interest: [], handler: reports.handler))
            pair.closePeer()
            let got = try await reports.wait(for: 1)
            #expect(got.count == 1 && got[0] == [.readable, .writable], "a hang-up reports both: the next read or write tells")
        }

        @Test func aClosedSetTakesNoSocket() throws {
            let readiness = try SocketReadiness(targetQueue: .global())
            readiness.close()
            readiness.close()  // twice is harmless
            let pair = try SocketPair()
            #expect(readiness.register(pair.local, interest: .readable, handler: { _ in }) == nil)
        }

        /// Connections reset by their clients while idle, mid-request and while their handler runs are all closed,
        /// long before any timeout would (every timeout here is a minute), and leave nothing registered.
        @Test func resetConnectionsAreClosedPromptlyAndLeaveNothingBehind() async throws {
            raiseFileLimit(to: 8192)
            try await withServer({ configuration in
                configuration.headerReadTimeout = .seconds(60)
                configuration.bodyReadTimeout = .seconds(60)
                configuration.idleTimeout = .seconds(60)
                configuration.lingerTimeout = .seconds(60)
            }) { server in
                let port = server.port
                let before = openFDCount()
                try await offload {
                    for i in 0..<600 {
                        let client = try RawClient(port: port)
                        switch i % 3 {
                        case 0:  // idle keep-alive connection, after a whole exchange
                            try client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
                            _ = try client.readResponse()
                        case 1:  // half a request head
                            try client.send("GET /hello HTTP/1.1\r\nHo")
                        default:  // while the handler runs
                            try client.send("GET /slow?ms=20 HTTP/1.1\r\nHost: x\r\n\r\n")
                        }
                        client.reset()  // the reset happens as the client goes, at the end of the iteration
                    }
                }
                for _ in 0..<250 where server.openConnectionCount > 0 || server.registeredSocketCount > 0 {
                    try await Task.sleep(for: .milliseconds(20))
                }
                #expect(server.openConnectionCount == 0)
                #expect(server.registeredSocketCount == 0)
                #expect(openFDCount() <= before, "descriptors before \(before), after \(openFDCount())")
                let answer = try await offload {
                    let client = try RawClient(port: port)
                    try client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
                    return try client.readResponse().status
                }
                #expect(answer == 200)
            }
        }
    }
}

extension HTTPServerTests.SocketReadinessTests {
    /// The readiness set lives as long as the server's last connection and no longer: after a shutdown that had to
    /// force connections closed, the process holds exactly the descriptors it held before the server started.
    @Test func aStoppedServerLeavesNoDescriptorBehind() async throws {
        let before = openFDCount()
        var configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 0)
        configuration.idleTimeout = .seconds(60)
        let server = HTTPServer(configuration: configuration, router: testRouter())
        try server.start()
        let port = server.port
        let clients = try await offload {
            try (0..<3).map { _ in
                let client = try RawClient(port: port)
                try client.send("GET /slow?ms=300 HTTP/1.1\r\nHost: x\r\n\r\n")
                return client
            }
        }
        for _ in 0..<100 where server.registeredSocketCount < 3 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(server.registeredSocketCount == 3)
        await server.shutdown(deadline: .milliseconds(50))
        for _ in 0..<100 where openFDCount() > before + clients.count { try await Task.sleep(for: .milliseconds(10)) }
        // At most: a descriptor some earlier test left to close lazily may go meanwhile; a leaked epoll set would not.
        #expect(openFDCount() <= before + clients.count, "only the clients' own descriptors are left")
        #expect(server.registeredSocketCount == 0)
    }
}
