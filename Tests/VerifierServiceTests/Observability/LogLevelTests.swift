import Foundation
import Logging
import Testing
import TestSupport
@testable import VerifierConfiguration
@testable import VerifierService

/// `logging.level` (`VERIFIERD_LOGGING_LEVEL`, `serve --log-level`): lines below it are not written, access lines
/// (`info`) included; an unknown level stops start-up with the valid ones listed.
@Suite(.serialized)
struct LogLevelTests {
    static let validList = "trace, debug, info, notice, warning, error, critical"

    func configurationFile(_ extra: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("verifierd-loglevel-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("trust"), withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("verifierd.json")
        try Data(#"{"server": {"host": "127.0.0.1", "port": 0}, "trust": {"iacaDirectory": "trust", "pollSeconds": 0}\#(extra)}"#.utf8)
            .write(to: file)
        return file
    }

    func load(_ extra: String, environment: [String: String] = [:]) throws -> Result<ServiceConfiguration, ConfigurationError> {
        let file = try configurationFile(extra)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        do {
            return .success(try ConfigurationLoader.load(file: file, environment: environment))
        } catch {
            return .failure(error)
        }
    }

    func level(_ extra: String, environment: [String: String] = [:]) throws -> Logger.Level? {
        try load(extra, environment: environment).get().logging.level
    }

    func failure(_ extra: String, environment: [String: String] = [:]) throws -> ConfigurationError? {
        if case .failure(let error) = try load(extra, environment: environment) { return error }
        return nil
    }

    @Test func theLevelComesFromTheFileOrTheEnvironmentAndDefaultsToInfo() throws {
        #expect(try level("") == .info)
        for name in ["trace", "debug", "info", "notice", "warning", "error", "critical"] {
            #expect(try level(#", "logging": {"level": "\#(name)"}"#) == Logger.Level(rawValue: name))
        }
        #expect(try level("", environment: ["VERIFIERD_LOGGING_LEVEL": "error"]) == .error)
        #expect(try level(#", "logging": {"level": "debug"}"#, environment: ["VERIFIERD_LOGGING_LEVEL": "warning"]) == .warning)
    }

    @Test func anUnknownLevelIsRefusedWithTheValidOnes() throws {
        let unknown = try #require(try failure(#", "logging": {"level": "verbose"}"#))
        #expect(unknown.key == "logging.level")
        #expect(unknown.reason == "must be one of \(Self.validList), got \"verbose\"")
        // Names are exact: no other case, no synonyms.
        #expect(try failure(#", "logging": {"level": "WARNING"}"#)?.key == "logging.level")
        #expect(try failure(#", "logging": {"level": "warn"}"#)?.key == "logging.level")
        #expect(try failure(#", "logging": {"level": 3}"#)?.reason == "must be a string")
        let fromEnvironment = try #require(try failure("", environment: ["VERIFIERD_LOGGING_LEVEL": "loud"]))
        #expect(fromEnvironment.reason.contains(Self.validList) && fromEnvironment.reason.contains("(set by VERIFIERD_LOGGING_LEVEL)"))
        // The section and its key are known like every other.
        let unknownKey = try #require(try failure(#", "logging": {"format": "text"}"#))
        #expect(unknownKey.key == "logging.format" && unknownKey.reason.contains("known: level"))
        #expect(try #require(try failure(#", "loging": {}"#)).reason.contains("logging"))
        #expect(try #require(try failure("", environment: ["VERIFIERD_LOGGING_FORMAT": "text"])).reason.contains("VERIFIERD_LOGGING_LEVEL"))
    }

    @Test func atWarningInfoAndAccessLinesAreNotWrittenButWarningsAndErrorsAre() async throws {
        let harness = try ServiceHarness(anchors: [LogFieldTypeTests.p384]) { $0["logging"] = ["level": "warning"] }
        defer { Task { await harness.stop() } }
        #expect(try await harness.request("GET", "/healthz").status == 200)
        // A rejected change by hand (an error), then a change through the API (a notice).
        let bad = harness.folder.appendingPathComponent("trusted-iaca/not-a-ca.pem")
        try FileManager.default.copyItem(at: ServiceHarness.pki.appendingPathComponent("ds-p256.pem"), to: bad)
        harness.service.iacaTrust.reloadIfChanged(actor: "test")
        try FileManager.default.removeItem(at: bad)
        #expect(try await harness.admin("POST", "/v1/admin/iaca", body: try Data(contentsOf: LogFieldTypeTests.p256)).status == 201)
        let lines = harness.logs.all.map(LogFieldTypeTests.object)
        #expect(!lines.contains { $0["message"] as? String == "request" }, "\(harness.logs.all)")
        #expect(!lines.contains { $0["message"] as? String == "trust set changed" })
        #expect(lines.contains { $0["message"] as? String == "trust directory change rejected; keeping the set in force"
            && $0["level"] as? String == "error" }, "\(harness.logs.all)")
        #expect(lines.allSatisfy { ["warning", "error", "critical"].contains($0["level"] as? String ?? "") })
        await harness.stop()
    }

    @Test func atTheDefaultLevelAccessLinesAndNoticesAreWritten() async throws {
        let harness = try ServiceHarness(anchors: [LogFieldTypeTests.p384])
        defer { Task { await harness.stop() } }
        #expect(try await harness.request("GET", "/healthz").status == 200)
        #expect(try await harness.admin("POST", "/v1/admin/iaca", body: try Data(contentsOf: LogFieldTypeTests.p256)).status == 201)
        let lines = harness.logs.all.map(LogFieldTypeTests.object)
        #expect(lines.contains { $0["message"] as? String == "request" && $0["level"] as? String == "info" })
        #expect(lines.contains { $0["message"] as? String == "trust set changed" && $0["level"] as? String == "notice" })
        await harness.stop()
    }

    @Test func serveTakesTheLevelOnTheCommandLine() async throws {
        let config = try configurationFile("")
        defer { try? FileManager.default.removeItem(at: config.deletingLastPathComponent()) }
        let refused = try CommandLineTests.run(["serve", "--config", config.path, "--log-level", "loud"])
        #expect(refused.status == 64, "\(refused.error)")
        #expect(refused.error.contains("--log-level must be one of \(Self.validList), got \"loud\""), "\(refused.error)")
        let fromEnvironment = try CommandLineTests.run(["serve", "--config", config.path],
                                                       environment: ["VERIFIERD_LOGGING_LEVEL": "loud"])
        #expect(fromEnvironment.status == 78, "\(fromEnvironment.error)")
        #expect(fromEnvironment.error.contains("logging.level") && fromEnvironment.error.contains(Self.validList))

        // --log-level notice: the listening notice is written, the request's info line is not.
        let serve = try ServeProcess(config: config, arguments: ["--log-level", "notice"])
        let port = try serve.port()
        #expect(RawHTTPClient.send(port: port, "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n") == 200)
        let (clean, rest) = serve.terminateAndReadRest()
        #expect(clean)
        let all = serve.startLog + rest
        #expect(all.contains(#""message":"stopped""#), "\(all)")
        #expect(!all.contains(#""message":"request""#), "\(all)")
        #expect(!all.contains(#""level":"info""#), "\(all)")
    }
}
