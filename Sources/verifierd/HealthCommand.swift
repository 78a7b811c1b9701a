import ArgumentParser
import Foundation
import VerifierService

/// `verifierd health`: asks the running service for `/healthz` on the address its configuration names, so a
/// container health check follows the configured port (and `VERIFIERD_SERVER_PORT`) instead of a fixed one.
struct HealthCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "health", abstract: "Probe the running service's /healthz on its configured port.",
        discussion: """
            Reads the same configuration (and VERIFIERD_* variables) as `serve`. With server.tls it asks the plain \
            health listener (server.plainHealthPort); without one it only checks that the TLS port accepts a \
            connection. A listener on 0.0.0.0 or :: is asked on 127.0.0.1 or ::1.
            Exit codes: 0 healthy, 1 not healthy (no answer, or not 200), 64 usage error, 78 configuration error.
            """)
    @OptionGroup var options: ConfigOption
    @Option(help: "Seconds to wait for the answer.")
    var timeout: Double = 3

    func validate() throws {
        guard timeout > 0, timeout <= 60 else { throw ValidationError("--timeout must be between 0 and 60 seconds") }
    }

    func run() throws {
        let configuration = ServiceLoading.configuration(options)
        let server = configuration.server
        let httpPort = server.tls == nil ? server.port : server.plainHealthPort
        let port = httpPort ?? server.port
        guard port > 0 else {
            ServiceLoading.fail(ConfigurationError(key: "server.port", "is 0 (a free port picked at start-up): there is no fixed port to probe"))
        }
        let host = switch server.host {
        case "0.0.0.0": "127.0.0.1"
        case "::": "::1"
        default: server.host
        }
        let probe = HealthProbe(host: host, port: port, timeoutSeconds: timeout)
        let outcome = httpPort == nil ? probe.connects() : probe.healthz()
        switch outcome {
        case .success(let detail):
            print("healthy: \(detail)")
        case .failure(let reason):
            FileHandle.standardError.write(Data("not healthy: \(reason)\n".utf8))
            throw ExitCode(1)
        }
    }
}
