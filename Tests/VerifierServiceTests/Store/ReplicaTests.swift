import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TestSupport

/// Three `verifierd serve` processes on one PostgreSQL database (a throwaway cluster of their own): the trust set,
/// web sessions and issued Apple nonces are shared, each used once across replicas, and a database outage of five
/// seconds loses nothing and needs no restart.
@Suite(.serialized, .enabled(if: PostgresTestCluster.enabled, "no PostgreSQL binaries (initdb, pg_ctl) found: install Debian's postgresql"))
final class ReplicaTests: @unchecked Sendable {
    static let adminToken = "replica-admin-token-0123456789"
    /// The demo configuration's integrator token, which the Python wallets send by default too.
    static let integratorToken = "demo-integrator-token-TEST-ONLY"
    let cluster: PostgresTestCluster
    let folder: URL
    /// Replicas 0 and 1 require issued nonces; replica 2 does not (it keeps verifying in-app answers in an outage).
    let replicas: [ServeProcess]
    let session = URLSession(configuration: .ephemeral)

    init() throws {
        cluster = try PostgresTestCluster()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("verifierd-replicas-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = try cluster.makeDatabase()
        let key = folder.appendingPathComponent("session.key")
        var bytes = [UInt8](repeating: 0, count: 32)
        for index in bytes.indices { bytes[index] = UInt8.random(in: 0...255) }
        try Data(Data(bytes).base64EncodedString().utf8).write(to: key)
        var started: [ServeProcess] = []
        for (index, requireNonce) in [true, true, false].enumerated() {
            let config = try Self.configuration(url: url, key: key, trust: folder.appendingPathComponent("trust-\(index)"),
                                                requireIssuedNonce: requireNonce, into: folder.appendingPathComponent("replica-\(index).json"))
            started.append(try ServeProcess(config: config))
        }
        replicas = started
    }

    deinit {
        for replica in replicas where replica.process.isRunning { replica.process.terminate() }
        cluster.stopAndDelete()
        try? FileManager.default.removeItem(at: folder)
    }

    /// The demo configuration with absolute paths, port 0, the PostgreSQL store and an admin token.
    static func configuration(url: String, key: URL, trust: URL, requireIssuedNonce: Bool, into file: URL) throws -> URL {
        let demo = Fixtures.repositoryRoot.appendingPathComponent("config")
        var root = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: demo.appendingPathComponent("verifierd.json"))) as? [String: Any])
        func absolute(_ path: String) -> String { demo.appendingPathComponent(path).standardizedFileURL.path }
        root["server"] = ["host": "127.0.0.1", "port": 0]
        var apple = try #require(root["apple"] as? [String: Any])
        apple["encryptionKeys"] = (apple["encryptionKeys"] as? [String] ?? []).map(absolute)
        apple["requireIssuedNonce"] = requireIssuedNonce
        root["apple"] = apple
        var trustSection = try #require(root["trust"] as? [String: Any])
        trustSection["iacaDirectory"] = trust.path
        trustSection["seedDirectory"] = absolute(trustSection["seedDirectory"] as? String ?? "")
        trustSection["vicalSigners"] = (trustSection["vicalSigners"] as? [String: String] ?? [:]).mapValues(absolute)
        root["trust"] = trustSection
        // The SD-JWT VC issuer set: this replica's own directory, seeded from the demo's TEST-ONLY issuer.
        var sdJwtVc = try #require(root["sdJwtVc"] as? [String: Any])
        sdJwtVc["issuerDirectory"] = trust.deletingLastPathComponent().appendingPathComponent(trust.lastPathComponent + "-sd-jwt-vc").path
        sdJwtVc["seedDirectory"] = absolute(sdJwtVc["seedDirectory"] as? String ?? "")
        root["sdJwtVc"] = sdJwtVc
        var tokens = try #require(root["readerTokens"] as? [String: Any])
        tokens["signingKey"] = absolute(tokens["signingKey"] as? String ?? "")
        root["readerTokens"] = tokens
        var readerAuth = try #require(root["readerAuth"] as? [String: Any])
        readerAuth["signingKey"] = absolute(readerAuth["signingKey"] as? String ?? "")
        readerAuth["certificateChain"] = absolute(readerAuth["certificateChain"] as? String ?? "")
        root["readerAuth"] = readerAuth
        root["admin"] = ["token": adminToken]
        root["store"] = ["kind": "postgres", "url": url, "sessionKeyFile": key.path, "operationTimeoutMs": 1000]
        // The generated status lists (TestVectors/status) are served on loopback and dated 2030: the status test
        // sends its verification time.
        var verification = root["verification"] as? [String: Any] ?? [:]
        verification["allowVerificationTimeOverride"] = true
        root["verification"] = verification
        root["status"] = ["allowedSchemes": ["http"], "fetchTimeoutSeconds": 2, "maxListBytes": 65_536]
        root["outbound"] = ["allowedDestinations": ["127.0.0.1:\(StatusListServer.port)"]]
        try JSONSerialization.data(withJSONObject: root, options: [.sortedKeys]).write(to: file)
        return file
    }

    struct Reply {
        let status: Int
        let body: Data
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
    }

    func request(_ replica: Int, _ method: String, _ path: String, body: Data? = nil, contentType: String = "application/json",
                 admin: Bool = false) async throws -> Reply {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(try replicas[replica].port())\(path)")!)
        request.httpMethod = method
        request.httpBody = body
        request.timeoutInterval = 30
        if body != nil { request.setValue(contentType, forHTTPHeaderField: "Content-Type") }
        request.setValue("Bearer \(admin ? Self.adminToken : Self.integratorToken)", forHTTPHeaderField: "Authorization")
        let (data, response) = try await session.data(for: request)
        return Reply(status: (response as? HTTPURLResponse)?.statusCode ?? 0, body: data)
    }

    func anchorVersion(_ replica: Int) async throws -> (version: Int, anchors: Set<String>) {
        let reply = try await request(replica, "GET", "/v1/admin/iaca", admin: true)
        let anchors = (reply.json["anchors"] as? [[String: Any]] ?? []).compactMap { $0["sha256"] as? String }
        return (reply.json["version"] as? Int ?? -1, Set(anchors))
    }

    /// One-use bodies made by the independent Python wallets against `replica`.
    func walletBodies(_ script: String, _ arguments: [String], replica: Int) throws -> [Data] {
        let out = folder.appendingPathComponent("\(script)-\(UUID().uuidString.prefix(6)).jsonl")
        let result = try ProcessRunner.run(["python3", "TestVectors/generator/\(script)", "--base-url",
                                            "http://127.0.0.1:\(try replicas[replica].port())", "--out", out.path] + arguments)
        #expect(result.status == 0, "\(script): \(result.output)\(result.error)")
        return try String(contentsOf: out, encoding: .utf8).split(separator: "\n").map { Data($0.utf8) }
    }

    /// Sends `body` `count` times at once, spread over `targets`; returns the statuses.
    func concurrently(_ path: String, _ body: Data, count: Int, targets: [Int]) async throws -> [Int] {
        try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<count {
                group.addTask { try await self.request(targets[index % targets.count], "POST", path, body: body).status }
            }
            var statuses: [Int] = []
            for try await status in group { statuses.append(status) }
            return statuses
        }
    }

    func waitUntil(_ limit: Duration, _ condition: () async throws -> Bool) async throws -> Duration? {
        let started = ContinuousClock.now
        while ContinuousClock.now - started < limit {
            if try await condition() { return ContinuousClock.now - started }
            try await Task.sleep(for: .milliseconds(50))
        }
        return nil
    }

    @Test func threeReplicasShareTrustSessionsAndNoncesAndSurviveADatabaseOutage() async throws {
        for replica in replicas { #expect(replica.process.isRunning, "replica did not start: \(replica.startLog)") }
        let seeded = try await anchorVersion(0)
        #expect(seeded.version == 1 && seeded.anchors.count == 1, "the first replica seeded the database from the demo folder")

        // 1. An IACA added on the first replica is in force on the other two within 2 s.
        let pem = try Data(contentsOf: Fixtures.testVectors.appendingPathComponent("pki/iaca-p384.pem"))
        let added = try await request(0, "POST", "/v1/admin/iaca", body: pem, contentType: "application/x-pem-file", admin: true)
        #expect(added.status == 201, "\(String(decoding: added.body, as: UTF8.self))")
        let version = added.json["version"] as? Int ?? -1
        for replica in [1, 2] {
            let took = try await waitUntil(.seconds(5)) { try await anchorVersion(replica).version == version }
            #expect(took != nil && took! <= .seconds(2), "replica \(replica) took \(String(describing: took))")
            #expect(try await anchorVersion(replica).anchors.count == 2)
        }

        // The trust-change history reads the same on every replica: the admin's change as the admin's, with its
        // request ID, not as a replication adopt; the seed below it.
        var histories: [[[String: Any]]] = []
        for replica in 0..<3 {
            let changes = try await request(replica, "GET", "/v1/admin/trust/changes", admin: true)
            #expect(changes.status == 200)
            histories.append(changes.json["changes"] as? [[String: Any]] ?? [])
        }
        let newest = try #require(histories[0].first)
        #expect(newest["action"] as? String == "add" && newest["version"] as? Int == version, "\(newest)")
        #expect((newest["actor"] as? String)?.contains("admin") == true, "\(newest)")
        #expect(newest["requestId"] as? String != nil)
        #expect(histories[0].last?["action"] as? String == "seed", "\(histories[0])")
        for replica in [1, 2] {
            #expect(histories[replica].map { "\($0["version"] ?? "")|\($0["actor"] ?? "")|\($0["action"] ?? "")|\($0["at"] ?? "")" }
                    == histories[0].map { "\($0["version"] ?? "")|\($0["actor"] ?? "")|\($0["action"] ?? "")|\($0["at"] ?? "")" },
                    "replica \(replica) reads another history")
        }

        // 2. A web session made on replica 0 verifies on replicas 1 and 2 exactly once: 16 replays at once.
        let web = try walletBodies("web_wallet.py", ["--issuer", "demo", "--bench-bodies", "2"], replica: 0)
        try #require(web.count == 2)
        let webStatuses = try await concurrently("/v1/web/verify", web[0], count: 16, targets: [1, 2])
        #expect(webStatuses.filter { $0 == 200 }.count == 1, "\(webStatuses)")
        #expect(webStatuses.filter { $0 == 409 }.count == 15, "\(webStatuses)")

        // 3. An issued nonce used on replicas 0 and 1 at once is accepted exactly once.
        let apple = try walletBodies("apple_wallet.py", ["--count", "2"], replica: 1)
        try #require(apple.count == 2)
        let appleStatuses = try await concurrently("/v1/apple/verify", apple[0], count: 16, targets: [0, 1])
        #expect(appleStatuses.filter { $0 == 200 }.count == 1, "\(appleStatuses)")
        #expect(appleStatuses.filter { $0 == 409 }.count == 15, "\(appleStatuses)")
        // A nonce the service never issued is refused before any decryption.
        let demoRequest = try Data(contentsOf: Fixtures.testVectors.appendingPathComponent("demo/verify-request.json"))
        let unknown = try await request(0, "POST", "/v1/apple/verify", body: demoRequest)
        #expect(unknown.status == 400 && unknown.json["code"] as? String == "NONCE_UNKNOWN")

        // 4. The database goes away for 5 s.
        try cluster.kill()
        let outageStarted = ContinuousClock.now
        let refused = try await request(1, "POST", "/v1/web/requests", body: Data(#"{"origin":"https://shop.example"}"#.utf8))
        #expect(refused.status == 503 && refused.json["code"] as? String == "STORE_UNAVAILABLE", "\(refused.status) \(refused.json)")
        let nonce = try await request(0, "POST", "/v1/apple/nonces", body: Data("{}".utf8))
        #expect(nonce.status == 503 && nonce.json["code"] as? String == "STORE_UNAVAILABLE")
        let usedNonce = try await request(0, "POST", "/v1/apple/verify", body: apple[1])
        #expect(usedNonce.status == 503, "a nonce cannot be checked while the database is away")
        let inApp = try await request(2, "POST", "/v1/apple/verify", body: demoRequest)
        #expect(inApp.status == 200, "without requireIssuedNonce, in-app answers verify on the snapshot in force")
        let degraded = try await waitUntil(.seconds(3)) {
            let ready = try await request(2, "GET", "/readyz")
            return (ready.json["store"] as? [String: Any])?["status"] as? String == "unavailable"
        }
        #expect(degraded != nil, "/readyz reports the store")
        // Found unreachable once, the database is not tried again until a probe reaches it: requests fail at once.
        let circuit = try await request(1, "GET", "/readyz")
        #expect((circuit.json["store"] as? [String: Any])?["circuit"] as? String == "open", "\(circuit.json)")
        let atOnce = try await request(1, "POST", "/v1/web/requests", body: Data(#"{"origin":"https://shop.example"}"#.utf8))
        #expect(atOnce.status == 503 && (atOnce.json["detail"] as? String)?.contains("not tried") == true, "\(atOnce.json)")
        try await Task.sleep(until: outageStarted + .seconds(5))
        try cluster.start()

        // 5. Back without restarting anything: nothing committed was lost, and everything works again.
        let recovered = try await waitUntil(.seconds(15)) {
            try await request(1, "POST", "/v1/web/requests", body: Data(#"{"origin":"https://shop.example"}"#.utf8)).status == 201
        }
        #expect(recovered != nil, "replica 1 makes sessions again")
        // Each replica's probe closes its circuit by itself (every 500 ms), without a request having to wait.
        for replica in [0, 2] {
            let ready = try await waitUntil(.seconds(10)) {
                let ready = try await request(replica, "GET", "/readyz")
                return (ready.json["store"] as? [String: Any])?["circuit"] as? String == "closed"
            }
            #expect(ready != nil, "replica \(replica) closed its circuit")
        }
        let afterOutage = try await request(2, "POST", "/v1/web/verify", body: web[1])
        #expect(afterOutage.status == 200, "the session made before the outage still verifies, once")
        let nonceAfter = try await request(0, "POST", "/v1/apple/verify", body: apple[1])
        #expect(nonceAfter.status == 200, "the nonce issued before the outage is still good")
        for replica in 0..<3 {
            #expect(try await anchorVersion(replica).version == version, "the trust version survived")
        }
        let removed = try await request(1, "DELETE", "/v1/admin/iaca/\(try await anchorVersion(1).anchors.subtracting(seeded.anchors).first ?? "")", admin: true)
        #expect(removed.status == 204)
        for replica in [0, 2] {
            #expect(try await waitUntil(.seconds(2)) { try await anchorVersion(replica).version == version + 1 } != nil)
        }
        let ready = try await request(0, "GET", "/readyz")
        #expect((ready.json["store"] as? [String: Any])?["status"] as? String == "ok")
    }

    /// A status list is fetched once for all three replicas (one claims the fetch, the others verify its bytes from
    /// the database), and a revoked document is refused on every replica. The documents are the generated status
    /// cases (verified at their verification time); the list is judged at the replicas' clock.
    /// The SD-JWT VC issuer set is kept like the IACAs: seeded once into its own table, and a change on one replica is in
    /// force on the others, with its history; the IACA set does not move.
    @Test func threeReplicasShareTheSDJWTVCIssuerSet() async throws {
        for replica in replicas { #expect(replica.process.isRunning, "replica did not start: \(replica.startLog)") }
        func issuers(_ replica: Int) async throws -> (version: Int, anchors: Set<String>) {
            let reply = try await request(replica, "GET", "/v1/admin/sd-jwt-vc-issuers", admin: true)
            let anchors = (reply.json["anchors"] as? [[String: Any]] ?? []).compactMap { $0["sha256"] as? String }
            return (reply.json["version"] as? Int ?? -1, Set(anchors))
        }
        let seeded = try await issuers(0)
        #expect(seeded.version == 1 && seeded.anchors.count == 1, "seeded from TestVectors/sdjwt/trusted-issuers")
        let iacaBefore = try await anchorVersion(0)
        let pem = try Data(contentsOf: Fixtures.testVectors.appendingPathComponent("sdjwt/pki/issuer-ca-other.pem"))
        let added = try await request(0, "POST", "/v1/admin/sd-jwt-vc-issuers", body: pem, contentType: "application/x-pem-file", admin: true)
        #expect(added.status == 201, "\(String(decoding: added.body, as: UTF8.self))")
        for replica in [1, 2] {
            let took = try await waitUntil(.seconds(5)) { try await issuers(replica).version == 2 }
            #expect(took != nil, "replica \(replica) did not adopt the issuer set")
            #expect(try await issuers(replica).anchors.count == 2)
        }
        let changes = try await request(2, "GET", "/v1/admin/sd-jwt-vc-issuers/changes", admin: true)
        #expect((changes.json["changes"] as? [[String: Any]])?.first?["action"] as? String != nil, "\(String(decoding: changes.body, as: UTF8.self))")
        #expect(try await anchorVersion(1) == iacaBefore)
    }

    @Test func threeReplicasFetchAStatusListOnce() async throws {
        for replica in replicas { #expect(replica.process.isRunning, "replica did not start: \(replica.startLog)") }
        // The replicas judge lists at their own clock: bits1 as generated, but dated now.
        let fresh = folder.appendingPathComponent("bits1.cwt")
        let minted = try ProcessRunner.run(["python3", "TestVectors/generator/status_lists.py", "--fresh", "bits1", fresh.path])
        try #require(minted.status == 0, "\(minted.error)")
        let lists = try StatusListServer(replacing: ["bits1": [UInt8](try Data(contentsOf: fresh))])
        defer { Task { await lists.stop() } }
        // The IACA of the generated status cases, added on one replica, in force on all.
        let pem = try Data(contentsOf: Fixtures.testVectors.appendingPathComponent("pki/iaca-p256.pem"))
        let added = try await request(0, "POST", "/v1/admin/iaca", body: pem, contentType: "application/x-pem-file", admin: true)
        #expect(added.status == 201, "\(String(decoding: added.body, as: UTF8.self))")
        let version = added.json["version"] as? Int ?? -1
        for replica in [1, 2] {
            #expect(try await waitUntil(.seconds(5)) { try await anchorVersion(replica).version == version } != nil)
        }
        let manifest = try JSONValue.load(StatusListServer.folder.appendingPathComponent("manifest.json"))
        let time = try #require(manifest["verificationTime"]?.string)
        func body(_ name: String) throws -> Data {
            func file(_ suffix: String) throws -> String {
                Data(try Fixtures.hexFile(StatusListServer.folder.appendingPathComponent("cases/\(name).\(suffix).hex"))).base64EncodedString()
            }
            return try JSONSerialization.data(withJSONObject: [
                "deviceResponse": try file("deviceresponse"), "sessionTranscript": try file("transcript"), "verificationTime": time,
            ])
        }
        func statusCheck(_ reply: Reply) -> [String: Any]? {
            ((reply.json["documents"] as? [[String: Any]])?.first?["checks"] as? [[String: Any]])?.first { $0["id"] as? String == "mso.status" }
        }
        // Nine verifications at once, three on each replica.
        let valid = try body("status-valid")
        let replies = try await withThrowingTaskGroup(of: Reply.self) { group in
            for index in 0..<9 { group.addTask { try await self.request(index % 3, "POST", "/v1/mdoc/verify", body: valid) } }
            var all: [Reply] = []
            for try await reply in group { all.append(reply) }
            return all
        }
        for reply in replies {
            #expect(reply.status == 200 && statusCheck(reply)?["outcome"] as? String == "passed",
                    "\(reply.status) \(String(decoding: reply.body, as: UTF8.self).prefix(400))")
        }
        #expect(lists.fetches("bits1") == 1, "one fetch of the list for three replicas")
        // A document revoked on the same list: refused everywhere, still without another fetch.
        let revokedCase = try #require(manifest["cases"]?.array.first {
            $0["statusList"]?["uri"]?.string?.hasSuffix("/lists/bits1") == true && $0["expect"]?["outcome"]?.string == "failed"
        }?["name"]?.string)
        let revoked = try body(revokedCase)
        for replica in 0..<3 {
            let reply = try await request(replica, "POST", "/v1/mdoc/verify", body: revoked)
            #expect(reply.status == 422 && statusCheck(reply)?["outcome"] as? String == "failed", "\(revokedCase) on \(replica)")
        }
        #expect(lists.fetches("bits1") == 1)
        await lists.stop()
    }
}
