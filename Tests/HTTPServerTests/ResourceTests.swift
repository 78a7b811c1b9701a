#if canImport(Glibc)
import Glibc
#endif
import Foundation
import HTTPServer
import Testing

extension HTTPServerTests {
    @Suite struct Resources {
        @Test func noDescriptorLeakAfterThousandConnections() async throws {
            raiseFileLimit(to: 8192)
            try await withServer({ $0.lingerTimeout = .milliseconds(300) }) { server in
                let port = server.port
                // Warm up: lets lazily opened descriptors (Dispatch, URL caches...) appear before the baseline.
                try await offload {
                    for _ in 0..<20 {
                        let c = try RawClient(port: port)
                        try c.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
                        _ = try c.readResponse()
                    }
                }
                try await settle(server)
                let before = openFDCount()
                try await offload {
                    var batch: [RawClient] = []
                    for i in 0..<1000 {
                        let c = try RawClient(port: port)
                        // A mix: keep-alive closed by the client, Connection: close, malformed, and silent.
                        switch i % 4 {
                        case 0: try c.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n"); _ = try c.readResponse()
                        case 1: try c.send("GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"); _ = try c.readResponse()
                        case 2: try c.send("GET /hello HTTP/1.1\r\n\r\n"); _ = try c.readResponse()
                        default: break
                        }
                        batch.append(c)
                        if batch.count == 100 { batch.removeAll() }
                    }
                }
                try await settle(server)
                let after = openFDCount()
                #expect(after == before, "open fds before \(before), after \(after)")
            }
        }

        /// Waits until the server has closed every connection (bounded).
        func settle(_ server: HTTPServer) async throws {
            for _ in 0..<300 where server.openConnectionCount > 0 {
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(server.openConnectionCount == 0)
        }
    }
}
