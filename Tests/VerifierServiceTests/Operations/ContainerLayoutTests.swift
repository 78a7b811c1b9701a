import Foundation
import Testing
import TestSupport
@testable import VerifierConfiguration
@testable import VerifierService

/// The container image cannot be built here (no Docker engine), so these tests hold what it relies on: the
/// configuration it bakes in loads and keeps to its layout, and `verifierd health`, its health check, follows the
/// configured port.
@Suite(.serialized)
struct ContainerLayoutTests {
    static let dockerfile = Fixtures.repositoryRoot.appendingPathComponent("Dockerfile")
    static let containerConfig = Fixtures.repositoryRoot.appendingPathComponent("config/container/verifierd.json")

    /// Read-only configuration under /etc/verifierd, the writable trust set on the /var/lib/verifierd volume,
    /// listening on every interface, nothing test-only switched on.
    @Test func theBakedConfigurationKeepsToTheLayout() throws {
        let configuration = try ConfigurationLoader.load(file: Self.containerConfig, environment: [:])
        #expect(configuration.server.host == "0.0.0.0")
        #expect(configuration.server.portIsConfigured && configuration.server.port == 8080)
        #expect(configuration.trust.iacaDirectory.path == "/var/lib/verifierd/trusted-iaca")
        #expect(configuration.trust.seedDirectory?.path == "/etc/verifierd/trusted-iaca")
        #expect(!configuration.verification.allowVerificationTimeOverride)

        let text = try String(contentsOf: Self.dockerfile, encoding: .utf8)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.contains("COPY config/container/verifierd.json /etc/verifierd/verifierd.json"))
        #expect(lines.contains("VOLUME [\"/var/lib/verifierd\"]"))
        #expect(lines.contains("USER 10001:10001"))
        #expect(text.contains("install -d -o verifierd -g verifierd -m 0750 /var/lib/verifierd"))
        // The health check and the service read the same file, and the check asks the port configured there.
        #expect(text.contains("CMD [\"/usr/local/bin/verifierd\", \"health\", \"--config\", \"/etc/verifierd/verifierd.json\""))
        #expect(lines.contains("CMD [\"serve\", \"--config\", \"/etc/verifierd/verifierd.json\"]"))
        // FoundationNetworking (URLSession) needs libcurl at run time even with the Swift runtime linked in.
        #expect(text.contains("libcurl4t64") && text.contains("ca-certificates"))
    }

    /// Both base images are pinned by digest, the binary is built with the Swift runtime linked in and stripped, and
    /// the image carries OCI labels whose version is the executable's.
    @Test func theImageIsPinnedStaticStrippedAndLabelled() throws {
        let text = try String(contentsOf: Self.dockerfile, encoding: .utf8)
        let lines = text.split(separator: "\n").map(String.init)
        let pins = lines.filter { $0.hasPrefix("ARG SWIFT_IMAGE=") || $0.hasPrefix("ARG RUNTIME_IMAGE=") }
        #expect(pins.count == 2)
        for pin in pins {
            let digest = try #require(pin.split(separator: "@").last.map(String.init), "\(pin)")
            #expect(digest.hasPrefix("sha256:") && digest.count == 71
                    && digest.dropFirst(7).allSatisfy { $0.isHexDigit && !$0.isUppercase }, "\(pin)")
        }
        let froms = lines.filter { $0.hasPrefix("FROM ") }
        #expect(froms == ["FROM ${SWIFT_IMAGE} AS build", "FROM ${RUNTIME_IMAGE}"])

        let build = try #require(lines.first { $0.hasPrefix("RUN swift build ") })
        #expect(build.contains("--static-swift-stdlib") && build.contains("--force-resolved-versions"))
        #expect(text.contains("strip --strip-all /out/verifierd"))
        #expect(lines.contains("COPY --from=build /out/verifierd /usr/local/bin/verifierd"))

        for label in ["title", "description", "version", "source", "licenses"] {
            #expect(text.contains("org.opencontainers.image.\(label)="), "label \(label)")
        }
        #expect(text.contains("org.opencontainers.image.licenses=\"Apache-2.0\""))
        let executable = try CommandLineTests.run(["--version"]).output
        let versionArg = try #require(lines.first { $0.hasPrefix("ARG VERSION=") }).dropFirst("ARG VERSION=".count)
        #expect(executable.hasPrefix("verifierd \(versionArg) "), "\(executable) vs Dockerfile \(versionArg)")
    }

    /// `verifierd health` asks /healthz on the configured port (here set by VERIFIERD_SERVER_PORT, as an operator
    /// may), maps 0.0.0.0 to loopback, and exits 1 once nothing answers.
    @Test func healthFollowsTheConfiguredPort() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("verifierd-health-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("trust"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(at: ServiceHarness.pki.appendingPathComponent("iaca-p256.pem"),
                                         to: folder.appendingPathComponent("trust/iaca-p256.pem"))
        let config = folder.appendingPathComponent("verifierd.json")
        try Data(#"{"server": {"host": "0.0.0.0", "port": 0}, "trust": {"iacaDirectory": "trust", "pollSeconds": 0}}"#.utf8)
            .write(to: config)
        let serve = try ServeProcess(config: config)
        let port = try serve.port()

        let healthy = try CommandLineTests.run(["health", "--config", config.path],
                                               environment: ["VERIFIERD_SERVER_PORT": "\(port)"])
        #expect(healthy.status == 0, "\(healthy.error)")
        #expect(healthy.output.contains("healthy: 200 from http://127.0.0.1:\(port)/healthz"))

        // Port 0 has nothing fixed to ask: a configuration error.
        let unknownPort = try CommandLineTests.run(["health", "--config", config.path])
        #expect(unknownPort.status == 78)
        #expect(unknownPort.error.contains("server.port"))

        #expect(serve.terminate())
        let down = try CommandLineTests.run(["health", "--config", config.path, "--timeout", "1"],
                                            environment: ["VERIFIERD_SERVER_PORT": "\(port)"])
        #expect(down.status == 1)
        #expect(down.error.contains("not healthy: cannot connect to 127.0.0.1:\(port)"))
    }
}
