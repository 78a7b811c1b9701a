import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TrustStore

/// `kill -9` during trust writes: whenever the process dies, the directory loads on restart and the set in force is
/// exactly the old one or exactly the new one, never a mix, never nothing.
@Suite(.serialized)
final class TrustCrashSafetyTests: @unchecked Sendable {
    static let adminToken = "crash-admin-token-0123456789abcdef"
    let folder: URL
    let config: URL
    let directory: TrustDirectory
    let session = URLSession(configuration: .ephemeral)
    /// The set in force at the start (5 anchors) and the large set a PUT replaces it with (300 anchors).
    let small: [String]
    let large: [String]

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("verifierd-crash-\(UUID().uuidString.prefix(8))")
        let trust = folder.appendingPathComponent("trusted-iaca")
        try FileManager.default.createDirectory(at: trust, withIntermediateDirectories: true)
        small = try (0..<5).map { try TestIACA.pem(commonName: "Old IACA \($0)") }
        large = try (0..<300).map { try TestIACA.pem(commonName: "New IACA \($0)") }
        directory = TrustDirectory(url: trust)
        try directory.write(TrustSet(anchors: try small.map { try TrustAnchor(derBytes: Self.der($0)) }))
        config = folder.appendingPathComponent("verifierd.json")
        let object: [String: Any] = [
            "server": ["host": "127.0.0.1", "port": 0],
            "trust": ["iacaDirectory": trust.path, "pollSeconds": 0],
            "admin": ["token": Self.adminToken],
        ]
        try JSONSerialization.data(withJSONObject: object).write(to: config)
    }

    deinit {
        session.invalidateAndCancel()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Once inside each step of a write (test hook): killed before the switch, the old set is in force; killed
    /// after it, the new one. The next write removes what the killed one left behind.
    @Test func aKillInsideEachWriteStepLeavesTheOldOrTheNewSet() async throws {
        for step in TrustWriteStep.allCases {
            let before = try fingerprintsInForce()
            let serve = try ServeProcess(config: config, environment: [TrustWriteStep.crashHookEnvironmentName: step.rawValue])
            let port = try serve.port()
            let target = before == Self.fingerprints(small) ? large : small
            _ = try? await put(target, port: port)
            serve.process.waitUntilExit()
            #expect(serve.process.terminationReason == .uncaughtSignal && serve.process.terminationStatus == SIGKILL,
                    "the hook in \(step) did not kill the process")
            let after = try fingerprintsInForce()
            #expect(after == (step == .switch ? Self.fingerprints(target) : before), "killed in \(step)")
            try await restartAndCheck(expecting: after)
        }
        // A clean write clears the leftovers of every killed one.
        let serve = try ServeProcess(config: config)
        let port = try serve.port()
        let status = try await put(small, port: port)
        #expect(status == 200)
        #expect(serve.terminate())
        let versions = try FileManager.default.contentsOfDirectory(atPath: directory.url.appendingPathComponent(".versions").path)
        #expect(!versions.contains { $0.hasPrefix(".staging-") }, "\(versions)")
        let top = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
        #expect(!top.contains { $0.hasPrefix(".current-") }, "\(top)")
        #expect(versions.count <= directory.versionsKept)
    }

    /// 100 times: PUT a 300-anchor set (or back to the 5-anchor one) and `kill -9` the service at a random moment
    /// of the request. The directory always loads, the service always starts on it, and the set in force is
    /// exactly one of the two.
    @Test func aHundredRandomKillsDuringALargePut() async throws {
        // How long a whole PUT takes here, to spread the kills over it.
        var slowest = Duration.zero
        for _ in 0..<2 {
            let serve = try ServeProcess(config: config)
            let port = try serve.port()
            let target = try fingerprintsInForce() == Self.fingerprints(small) ? large : small
            let clock = ContinuousClock()
            let started = clock.now
            #expect(try await put(target, port: port) == 200)
            slowest = max(slowest, clock.now - started)
            #expect(serve.terminate())
        }
        var window = Int(slowest.components.seconds * 1_000_000 + slowest.components.attoseconds / 1_000_000_000_000) * 5 / 4
        var outcomes = (old: 0, new: 0)
        var killedWhileWritingFiles = 0
        for round in 0..<100 {
            let before = try fingerprintsInForce()
            let target = before == Self.fingerprints(small) ? large : small
            let serve = try ServeProcess(config: config)
            let port = try serve.port()
            let request = Task { [self] in try? await put(target, port: port) }
            try await Task.sleep(for: .microseconds(Int.random(in: 0...max(window, 1))))
            serve.kill9()
            _ = await request.value
            let leftovers = (try? FileManager.default.contentsOfDirectory(atPath: directory.url.appendingPathComponent(".versions").path)) ?? []
            if leftovers.contains(where: { $0.hasPrefix(".staging-") }) { killedWhileWritingFiles += 1 }
            let after = try fingerprintsInForce()
            let isOld = after == before, isNew = after == Self.fingerprints(target)
            #expect(isOld || isNew, "round \(round): \(after.count) anchors in force, neither the old \(before.count) nor the new \(target.count)")
            if isOld { outcomes.old += 1 } else if isNew { outcomes.new += 1 }
            if round % 10 == 9 {
                try await restartAndCheck(expecting: after)
                // PUTs run slower or faster as this machine's load changes: when every kill so far fell on one side
                // of the switch, move the window so the rest spread over both.
                if outcomes.new == 0 { window = window * 3 / 2 } else if outcomes.old == 0 { window = window * 2 / 3 }
            }
        }
        try await restartAndCheck(expecting: try fingerprintsInForce())
        // The kills landed on both sides of the switch.
        #expect(outcomes.old > 0 && outcomes.new > 0, "old \(outcomes.old), new \(outcomes.new) (window \(window) µs)")
        print("crash safety: 100 kills over a window ending at \(window) µs: \(outcomes.old) left the old set, \(outcomes.new) the new one; "
              + "\(killedWhileWritingFiles) landed while the new version's files were being written")
    }

    /// A first write killed before its switch leaves `.versions/` and no `current`: seeding starts again rather
    /// than reading an empty flat folder.
    @Test func anInterruptedFirstSeedIsSeededAgain() throws {
        let seed = folder.appendingPathComponent("seed")
        try FileManager.default.createDirectory(at: seed, withIntermediateDirectories: true)
        try small[0].write(to: seed.appendingPathComponent("a.pem"), atomically: true, encoding: .utf8)
        let fresh = TrustDirectory(url: folder.appendingPathComponent("fresh"))
        try FileManager.default.createDirectory(at: fresh.url.appendingPathComponent(".versions/.staging-v1-2"),
                                                withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: fresh.url.appendingPathComponent(".lock").path, contents: nil))
        #expect(try fresh.seedIfAbsent(from: seed))
        #expect(try fresh.load().anchors.count == 1)
        // Once seeded, never again.
        #expect(try !fresh.seedIfAbsent(from: seed))
        // A folder with certificates placed by hand is not an interrupted write.
        let byHand = TrustDirectory(url: folder.appendingPathComponent("by-hand"))
        try FileManager.default.createDirectory(at: byHand.url.appendingPathComponent(".versions"), withIntermediateDirectories: true)
        try small[1].write(to: byHand.url.appendingPathComponent("b.pem"), atomically: true, encoding: .utf8)
        #expect(try !byHand.seedIfAbsent(from: seed))
    }

    // MARK: helpers

    /// The service starts on the directory and serves exactly `expected`.
    private func restartAndCheck(expecting expected: Set<String>) async throws {
        let serve = try ServeProcess(config: config)
        let port = try serve.port()
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/v1/admin/iaca")!)
        request.setValue("Bearer \(Self.adminToken)", forHTTPHeaderField: "Authorization")
        let (data, _) = try await session.data(for: request)
        let listed = ((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["anchors"] as? [[String: Any]] ?? [])
            .compactMap { $0["sha256"] as? String }
        #expect(Set(listed) == expected)
        #expect(serve.terminate())
    }

    private func put(_ pems: [String], port: Int) async throws -> Int {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/v1/admin/iaca")!)
        request.httpMethod = "PUT"
        request.httpBody = Data(pems.joined().utf8)
        request.setValue("Bearer \(Self.adminToken)", forHTTPHeaderField: "Authorization")
        request.setValue("application/x-pem-file", forHTTPHeaderField: "Content-Type")
        let (_, response) = try await session.data(for: request)
        return (response as? HTTPURLResponse)?.statusCode ?? 0
    }

    /// What a fresh reader of the directory finds in force (throws when it does not load).
    private func fingerprintsInForce() throws -> Set<String> {
        Set(try directory.load().anchors.map(\.sha256))
    }

    private static func fingerprints(_ pems: [String]) -> Set<String> {
        Set(pems.compactMap { try? TrustAnchor(derBytes: der($0)).sha256 })
    }

    private static func der(_ pem: String) throws -> [UInt8] {
        let body = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        return [UInt8](try #require(Data(base64Encoded: body)))
    }
}
