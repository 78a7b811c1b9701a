import Foundation
import HTTPServer
import HTTPTypes
import OutboundFetch
import Synchronization
import Testing

/// Real fetches over loopback through libcurl: what the allowlist opens works, everything else on this machine stays
/// refused at connect time, redirects are checked hop by hop, bodies are capped while they arrive.
@Suite(.serialized)
struct OutboundFetcherTests {
    /// A list server (the allowlisted destination) and a second "admin" server on another loopback port.
    final class Servers: Sendable {
        let lists: HTTPServer
        let admin: HTTPServer

        init() throws {
            var admin = Router()
            admin.get("/v1/admin/iaca") { _ in .text("secret admin answer") }
            self.admin = HTTPServer(configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0), router: admin)
            try self.admin.start()
            let adminPort = self.admin.port
            var router = Router()
            router.get("/ok") { _ in .text("list bytes") }
            router.get("/big") { _ in HTTPServerResponse(status: .ok, body: [UInt8](repeating: 0x41, count: 200_000)) }
            router.get("/slow") { _ in
                try await Task.sleep(for: .seconds(3))
                return .text("late")
            }
            router.get("/to/:target") { request in
                var fields = HTTPFields()
                let target = request.pathParameters["target"] ?? ""
                switch target {
                case "file": fields[.location] = "file:///etc/passwd"
                case "admin": fields[.location] = "http://127.0.0.1:\(adminPort)/v1/admin/iaca"
                case "localhost-admin": fields[.location] = "http://localhost:\(adminPort)/v1/admin/iaca"
                case "metadata": fields[.location] = "http://169.254.169.254/latest/meta-data/"
                case "gopher": fields[.location] = "gopher://127.0.0.1:70/"
                default: fields[.location] = "/ok"
                }
                return HTTPServerResponse(status: .found, headerFields: fields)
            }
            router.post("/echo") { request in
                HTTPServerResponse(status: .accepted, body: Array("\(request.head.headerFields[HTTPField.Name("webhook-id")!] ?? "")|".utf8) + request.body)
            }
            router.post("/moved") { _ in
                var fields = HTTPFields()
                fields[.location] = "/echo"
                return HTTPServerResponse(status: .temporaryRedirect, headerFields: fields)
            }
            router.get("/chain/:n") { request in
                let n = Int(request.pathParameters["n"] ?? "0") ?? 0
                var fields = HTTPFields()
                fields[.location] = n <= 1 ? "/ok" : "/chain/\(n - 1)"
                return HTTPServerResponse(status: .movedPermanently, headerFields: fields)
            }
            lists = HTTPServer(configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0), router: router)
            try lists.start()
        }

        var base: String { "http://127.0.0.1:\(lists.port)" }

        func stop() async {
            await lists.shutdown(deadline: .seconds(1))
            await admin.shutdown(deadline: .seconds(1))
        }
    }

    /// Generous for the answers that must arrive (the tests run beside others on two cores); the timeout tests set their own.
    static let limits = FetchLimits(totalTimeout: 10, connectTimeout: 5, idleTimeout: 5, maximumBodyBytes: 64 << 10)

    static func fetcher(_ servers: Servers, _ extra: [String] = []) -> OutboundFetcher {
        OutboundFetcher(policy: DestinationPolicy(allowed: (["127.0.0.1:\(servers.lists.port)"] + extra).compactMap(AllowedDestination.init)))
    }

    static func refusal(_ fetcher: OutboundFetcher, _ url: String, limits: FetchLimits = limits) async -> FetchError? {
        do {
            _ = try await fetcher.get(url, limits: limits)
            return nil
        } catch {
            return error
        }
    }

    @Test func theAllowlistedDestinationIsFetched() async throws {
        let servers = try Servers()
        let response = try await Self.fetcher(servers).get(servers.base + "/ok", limits: Self.limits)
        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == "list bytes")
        // A name entry opens that name on its port (here `localhost`, which resolves to loopback).
        let byName = try await Self.fetcher(servers, ["localhost:\(servers.lists.port)"])
            .get("http://localhost:\(servers.lists.port)/ok", limits: Self.limits)
        #expect(byName.status == 200)
        await servers.stop()
    }

    @Test func everythingElseOnThisMachineStaysRefused() async throws {
        let servers = try Servers()
        let fetcher = Self.fetcher(servers)
        let adminPort = servers.admin.port
        // Plain http to a destination the allowlist does not name.
        let http = await Self.refusal(fetcher, "http://127.0.0.1:\(adminPort)/v1/admin/iaca")
        #expect(http?.kind == .refused)
        // https to loopback: refused at connect time, for the address and for a name that resolves to it.
        for url in ["https://127.0.0.1:\(adminPort)/", "https://localhost:\(adminPort)/", "https://[::1]:\(adminPort)/",
                    "https://[::ffff:127.0.0.1]:\(adminPort)/", "https://0.0.0.0:\(adminPort)/"] {
            let error = await Self.refusal(fetcher, url)
            #expect(error?.kind == .refused, "\(url): \(String(describing: error))")
        }
        let loopback = await Self.refusal(fetcher, "https://127.0.0.1:\(adminPort)/")
        #expect(loopback?.reason.contains("loopback") == true, "\(String(describing: loopback))")
        // Without any allowlist, not even the list server.
        let closed = OutboundFetcher(policy: DestinationPolicy())
        #expect(await Self.refusal(closed, servers.base + "/ok")?.kind == .refused)
        await servers.stop()
    }

    @Test func redirectsAreCheckedHopByHop() async throws {
        let servers = try Servers()
        let fetcher = Self.fetcher(servers)
        let followed = try await fetcher.get(servers.base + "/to/same", limits: Self.limits)
        #expect(followed.status == 200 && followed.redirects == 1)
        for target in ["file", "admin", "localhost-admin", "metadata", "gopher"] {
            let error = await Self.refusal(fetcher, servers.base + "/to/\(target)")
            #expect(error?.kind == .refused, "\(target): \(String(describing: error))")
            #expect(error?.reason.hasPrefix("redirect 1:") == true, "\(target): \(String(describing: error))")
        }
        #expect(try await fetcher.get(servers.base + "/chain/3", limits: Self.limits).redirects == 3)
        let tooMany = await Self.refusal(fetcher, servers.base + "/chain/4")
        #expect(tooMany?.reason.contains("more than 3 redirects") == true, "\(String(describing: tooMany))")
        await servers.stop()
    }

    /// A POST (the webhook transport) sends its body and headers to the allowlisted destination, returns any status
    /// as is, never follows a redirect (a body is not sent on), and is refused elsewhere before any connection.
    @Test func aPostGoesOnlyWhereTheAllowlistSaysAndIsNeverRedirected() async throws {
        let servers = try Servers()
        let fetcher = Self.fetcher(servers)
        let body = Array(#"{"type":"presentation.completed"}"#.utf8)
        let sent = try await fetcher.post("\(servers.base)/echo", headers: ["webhook-id: msg_1", "Content-Type: application/json"],
                                          body: body, limits: Self.limits)
        #expect(sent.status == 202 && sent.body == Array("msg_1|".utf8) + body)
        let empty = try await fetcher.post("\(servers.base)/echo", body: [], limits: Self.limits)
        #expect(empty.status == 202 && empty.body == Array("|".utf8))
        let moved = try await fetcher.post("\(servers.base)/moved", body: body, limits: Self.limits)
        #expect(moved.status == 307 && moved.redirects == 0)
        do {
            _ = try await fetcher.post("http://127.0.0.1:\(servers.admin.port)/v1/admin/iaca", body: body, limits: Self.limits)
            Issue.record("a POST to a destination not allowlisted went out")
        } catch {
            #expect(error.kind == .refused)
        }
        await servers.stop()
    }

    @Test func theServicesOwnPortIsRefusedEvenWhenAllowlisted() async throws {
        let servers = try Servers()
        let fetcher = Self.fetcher(servers)
        fetcher.policy.refuse(listeningPorts: [servers.lists.port])
        let error = await Self.refusal(fetcher, servers.base + "/ok")
        #expect(error?.reason.contains("own listening port") == true, "\(String(describing: error))")
        await servers.stop()
    }

    @Test func bodiesAreCappedWhileTheyArrive() async throws {
        let servers = try Servers()
        // Declared length over the cap.
        let declared = await Self.refusal(Self.fetcher(servers), servers.base + "/big")
        #expect(declared?.kind == .tooLarge)
        // No declared length: cut off while streaming.
        let raw = try RawLoopbackServer(answer: Array("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n".utf8)
            + [UInt8](repeating: 0x42, count: 300_000))
        let streaming = await Self.refusal(Self.fetcher(servers, ["127.0.0.1:\(raw.port)"]), "http://127.0.0.1:\(raw.port)/")
        #expect(streaming?.kind == .tooLarge, "\(String(describing: streaming))")
        // Under the cap it arrives whole.
        let small = try RawLoopbackServer(answer: Array("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n".utf8)
            + [UInt8](repeating: 0x42, count: 1000))
        let body = try await Self.fetcher(servers, ["127.0.0.1:\(small.port)"]).get("http://127.0.0.1:\(small.port)/", limits: Self.limits).body
        #expect(body.count == 1000)
        raw.stop()
        small.stop()
        await servers.stop()
    }

    @Test func totalAndIdleDeadlines() async throws {
        let servers = try Servers()
        let slow = await Self.refusal(Self.fetcher(servers), servers.base + "/slow",
                                      limits: FetchLimits(totalTimeout: 1, idleTimeout: 5, maximumBodyBytes: 1024))
        #expect(slow?.kind == .timedOut, "\(String(describing: slow))")
        // Headers, then silence longer than the idle limit (the total would allow it).
        let stall = try RawLoopbackServer(answer: Array("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n12345".utf8) + Array("67890".utf8),
                                          pauseAfterHeaders: 6, headerLength: 39)
        let idle = await Self.refusal(Self.fetcher(servers, ["127.0.0.1:\(stall.port)"]), "http://127.0.0.1:\(stall.port)/",
                                      limits: FetchLimits(totalTimeout: 10, idleTimeout: 1, maximumBodyBytes: 1024))
        #expect(idle?.kind == .timedOut, "\(String(describing: idle))")
        stall.stop()
        await servers.stop()
    }

    /// A server that never answers, fetched 8 times at once with 2 transfers allowed to its `host:port`: the server
    /// never sees more than 2 connections, and every fetch, waiting ones included, ends by its deadline counted from
    /// when it was asked for (not from when a transfer started).
    @Test func stalledFetchesWaitForRoomAndStillEndByTheirDeadline() async throws {
        let inFlight = Mutex((now: 0, most: 0))
        var router = Router()
        router.get("/hang") { _ in
            inFlight.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
            defer { inFlight.withLock { $0.now -= 1 } }
            try? await Task.sleep(for: .seconds(3))
            return .text("late")
        }
        let server = HTTPServer(configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0), router: router)
        try server.start()
        let fetcher = OutboundFetcher(policy: DestinationPolicy(allowed: [AllowedDestination("127.0.0.1:\(server.port)")!]),
                                      maximumTransfers: 32, maximumPerDestination: 2)
        let limits = FetchLimits(totalTimeout: 1, connectTimeout: 1, idleTimeout: 5, maximumBodyBytes: 1024)
        let started = ContinuousClock.now
        let outcomes = await withTaskGroup(of: (FetchError?, Duration).self) { group in
            for _ in 0..<8 {
                group.addTask {
                    let error = await Self.refusal(fetcher, "http://127.0.0.1:\(server.port)/hang", limits: limits)
                    return (error, ContinuousClock.now - started)
                }
            }
            var all: [(FetchError?, Duration)] = []
            for await outcome in group { all.append(outcome) }
            return all
        }
        #expect(outcomes.count == 8)
        for (error, elapsed) in outcomes {
            #expect(error?.kind == .timedOut, "\(String(describing: error))")
            #expect(elapsed < .milliseconds(1_500), "ended \(elapsed) after it was asked for, deadline 1 s")
        }
        #expect(inFlight.withLock { $0.most } <= 2, "at most 2 transfers to one host:port")
        await server.shutdown(deadline: .seconds(1))
    }
}
