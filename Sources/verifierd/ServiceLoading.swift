import Foundation
import Logging
import VerifierService

#if canImport(Glibc)
import Glibc
#endif

/// Start-up helpers: configuration errors end the process with exit code 78 and a message naming the key.
enum ServiceLoading {
    static func configuration(_ option: ConfigOption) -> ServiceConfiguration {
        do {
            return try ConfigurationLoader.load(file: URL(fileURLWithPath: option.config),
                                                environment: ProcessInfo.processInfo.environment)
        } catch {
            fail(error)
        }
    }

    static func service(_ configuration: ServiceConfiguration, logger: Logger) async -> VerifierService {
        do {
            return try await VerifierService.open(configuration: configuration, logger: logger)
        } catch {
            fail(error)
        }
    }

    /// A service for commands that need neither sessions nor the trust set (tokens, transcripts): the local
    /// store whatever is configured, so they work without the database.
    static func localService(_ configuration: ServiceConfiguration, logger: Logger) -> VerifierService {
        var local = configuration
        local.store = .memory
        do {
            return try VerifierService(configuration: local, logger: logger)
        } catch {
            fail(error)
        }
    }

    static func fail(_ error: ConfigurationError) -> Never {
        FileHandle.standardError.write(Data("verifierd: \(error)\n".utf8))
        exit(ConfigurationError.exitCode)
    }

    /// A logger writing JSON lines to stdout (or to stderr for CLI commands whose stdout is their output).
    static func logger(toStandardError: Bool = false) -> Logger {
        (toStandardError ? LogOutput.standardError : LogOutput.standardOutput).logger(label: "verifierd")
    }
}
