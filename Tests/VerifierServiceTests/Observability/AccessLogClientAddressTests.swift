import Foundation
import Testing
import TestSupport

/// Request lines name the client: the socket peer's address and port, never what the request says about itself.
@Suite(.serialized)
struct AccessLogClientAddressTests {
    /// The access lines (message `request`) for `route`, decoded, with their text.
    static func requestLines(_ harness: ServiceHarness, route: String) -> [(text: String, object: [String: Any])] {
        harness.logs.all.map { ($0, LogFieldTypeTests.object($0)) }
            .filter { $0.object["message"] as? String == "request" && $0.object["route"] as? String == route }
    }

    @Test func aLoopbackRequestLineCarriesTheClientAddressAndPort() async throws {
        let harness = try ServiceHarness()
        defer { Task { await harness.stop() } }
        #expect(try await harness.request("GET", "/healthz").status == 200)
        let line = try #require(Self.requestLines(harness, route: "/healthz").first)
        #expect(line.object["clientAddress"] as? String == "127.0.0.1", "\(line.text)")
        let port = try #require(line.object["clientPort"] as? Int, "\(line.text)")
        #expect((1...65535).contains(port) && port != harness.server.port)
        #expect(LogFieldTypeTests.type(of: "clientPort", in: line.text) == "number")
        #expect(line.object["status"] as? Int == 200)
        await harness.stop()
    }

    @Test func forwardingHeadersDoNotChangeTheClientAddress() async throws {
        let harness = try ServiceHarness()
        defer { Task { await harness.stop() } }
        let claimed = ["X-Forwarded-For": "203.0.113.7", "X-Real-IP": "203.0.113.8", "Forwarded": "for=203.0.113.9"]
        #expect(try await harness.request("GET", "/healthz", headers: claimed).status == 200)
        let line = try #require(Self.requestLines(harness, route: "/healthz").first)
        #expect(line.object["clientAddress"] as? String == "127.0.0.1", "\(line.text)")
        #expect(!harness.logs.all.joined().contains("203.0.113."))
        await harness.stop()
    }

    @Test func aRequestTheServerRefusesItselfStillNamesTheClient() async throws {
        let harness = try ServiceHarness()
        defer { Task { await harness.stop() } }
        #expect(RawHTTPClient.send(port: harness.server.port, "BREW / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n") >= 400)
        let line = try #require(harness.logs.all.map(LogFieldTypeTests.object).first {
            $0["message"] as? String == "request" && $0["code"] != nil
        })
        #expect(line["clientAddress"] as? String == "127.0.0.1")
        await harness.stop()
    }
}
