#if canImport(Glibc)
import Glibc
#endif
import Foundation
import HTTPServer
import Testing

extension HTTPServerTests {
    @Suite struct Shutdown {
        @Test func sigtermLetsTheInFlightRequestFinishAndExitsZero() async throws {
            let exe = productsDirectory().appendingPathComponent("http-echo")
            #expect(FileManager.default.isExecutableFile(atPath: exe.path), "missing \(exe.path)")
            let process = Process()
            process.executableURL = exe
            process.arguments = ["--port", "0", "--shutdown-grace", "5"]
            let out = Pipe()
            process.standardOutput = out
            try process.run()
            defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }

            let reader = out.fileHandleForReading
            let port = try await offload { () -> Int in
                var text = ""
                while !text.contains("\n") {
                    let d = reader.availableData
                    if d.isEmpty { break }
                    text += String(decoding: d, as: UTF8.self)
                }
                guard let line = text.split(separator: "\n").first, line.hasPrefix("listening on "),
                      let port = Int(line.dropFirst("listening on ".count)) else {
                    throw TestError.failed("unexpected output \(text)")
                }
                return port
            }
            let idle = try await offload { try RawClient(port: port) }
            // A first request on the same connection proves the server has accepted it.
            let client = try await offload { () -> RawClient in
                let c = try RawClient(port: port, timeout: 10)
                try c.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
                _ = try c.readResponse()
                return c
            }
            async let slow: RawResponse = offload {
                try client.send("GET /slow?ms=1500 HTTP/1.1\r\nHost: x\r\n\r\n")
                return try client.readResponse()
            }
            try await Task.sleep(for: .milliseconds(500))
            kill(process.processIdentifier, SIGTERM)
            let response = try await slow
            #expect(response.status == 200)
            #expect(response.bodyText == "slow")
            #expect(response.header("Connection") == "close")
            #expect(try await offload { idle.isClosedByPeer() })
            try await offload { process.waitUntilExit() }
            #expect(process.terminationReason == .exit)
            #expect(process.terminationStatus == 0)
        }

        @Test func shutdownStopsAcceptingAndForceClosesAfterTheDeadline() async throws {
            var configuration = HTTPServerConfiguration(port: 0)
            configuration.lingerTimeout = .milliseconds(200)
            let server = HTTPServer(configuration: configuration, router: testRouter())
            try server.start()
            let port = server.port
            async let stuck: Bool = offload {
                let c = try RawClient(port: port, timeout: 10)
                try c.send("GET /slow?ms=5000 HTTP/1.1\r\nHost: x\r\n\r\n")
                return c.isClosedByPeer()
            }
            try await Task.sleep(for: .milliseconds(400))
            let start = ContinuousClock.now
            await server.shutdown(deadline: .milliseconds(500))
            let took = ContinuousClock.now - start
            #expect(took >= .milliseconds(450) && took < .seconds(3))
            #expect(try await stuck)
            #expect(server.state == .stopped)
            #expect(server.openConnectionCount == 0)
            #expect(throws: (any Error).self) { _ = try RawClient(port: port, timeout: 1) }
        }
    }
}
