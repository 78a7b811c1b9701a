import Foundation
import Testing
import TestSupport
import VerifierConfiguration

/// The configuration loader on its own: the demo file loads, the environment overrides it, and a mistake names the
/// key and what it may be.
struct ConfigurationLoaderTests {
    static let demo = Fixtures.repositoryRoot.appendingPathComponent("config/verifierd.json")

    static func write(_ json: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("verifierd-config-\(UUID().uuidString).json")
        try Data(json.utf8).write(to: url)
        return url
    }

    @Test func theDemoConfigurationLoads() throws {
        let configuration = try ConfigurationLoader.load(file: Self.demo, environment: [:])
        #expect(configuration.server.port == 8080)
        #expect(configuration.web?.allowedOrigins.map(\.text).contains("https://shop.example") == true)
        #expect(configuration.web?.maxSessionBytes == ServiceConfiguration.Web.defaultMaxSessionBytes)
        #expect(configuration.outbound.maxConcurrentFetches == 32 && configuration.outbound.maxConcurrentFetchesPerHost == 4)
        #expect(configuration.status.cacheMaxBytes == 64 << 20)
    }

    @Test func theEnvironmentOverridesTheFile() throws {
        let configuration = try ConfigurationLoader.load(file: Self.demo, environment: ["VERIFIERD_SERVER_PORT": "9090"])
        #expect(configuration.server.port == 9090)
    }

    @Test func aMistakeNamesItsKey() throws {
        let trust = #""trust": {"iacaDirectory": "trust"}"#
        func error(_ json: String) throws -> ConfigurationError? {
            let url = try Self.write(json)
            defer { try? FileManager.default.removeItem(at: url) }
            do {
                _ = try ConfigurationLoader.load(file: url, environment: [:])
                return nil
            } catch {
                return error
            }
        }
        let range = try error("{\(trust), \"web\": {\"allowedOrigins\": [\"https://a.example\"], \"maxSessionBytes\": 1024}}")
        #expect(range?.key == "web.maxSessionBytes")
        let unknown = try error("{\(trust), \"outbound\": {\"maxConcurrentFetchesPerHostt\": 2}}")
        #expect(unknown?.key == "outbound.maxConcurrentFetchesPerHostt")
        #expect(unknown?.reason.contains("maxConcurrentFetchesPerHost") == true, "\(String(describing: unknown))")
    }
}
