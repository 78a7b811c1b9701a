import ArgumentParser
import Foundation
import TrustStore
import VerifierService

/// `verifierd iaca list|add|remove|check`: the trust directory, with the same validation and atomic writes as the
/// admin API.
struct IACACommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "iaca", abstract: "Manage the trusted IACA roots directory.",
        subcommands: [List.self, Add.self, Remove.self, Check.self])

    static func manager(_ options: ConfigOption) -> TrustStoreManager {
        let configuration = ServiceLoading.configuration(options)
        do {
            return try TrustStoreManager(directory: TrustDirectory(url: configuration.trust.iacaDirectory),
                                         logger: ServiceLoading.logger(toStandardError: true))
        } catch {
            ServiceLoading.fail(ConfigurationError(key: "trust.iacaDirectory", error.description))
        }
    }

    static func describe(_ anchor: TrustAnchor) -> String {
        "\(anchor.sha256)  \(anchor.notBefore.formatted(.iso8601)) .. \(anchor.notAfter.formatted(.iso8601))  \(anchor.subject)"
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the trusted IACA roots.")
        @OptionGroup var options: ConfigOption
        func run() {
            for anchor in IACACommand.manager(options).snapshot.anchors { print(IACACommand.describe(anchor)) }
        }
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add IACA roots from PEM or DER files.")
        @OptionGroup var options: ConfigOption
        @Flag(help: "Trust certificates outside their validity period.") var allowExpired = false
        @Argument(help: "Certificate files.") var files: [String]
        func run() throws {
            var certificates: [[UInt8]] = []
            for file in files {
                certificates += try CertificateParsing.derCertificates(
                    from: Array(try Data(contentsOf: URL(fileURLWithPath: file))), source: file)
            }
            let anchors = try TrustStoreManager.validate(certificates, allowExpired: allowExpired, now: Date())
            _ = try IACACommand.manager(options).add(anchors, actor: "cli")
            for anchor in anchors { print("added \(IACACommand.describe(anchor))") }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove an IACA root by its SHA-256.")
        @OptionGroup var options: ConfigOption
        @Argument(help: "Lowercase hex SHA-256 of the certificate DER.") var sha256: String
        func run() throws {
            _ = try IACACommand.manager(options).remove(sha256: sha256, actor: "cli")
            print("removed \(sha256)")
        }
    }

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check that the directory holds a usable set; list anchors expiring within 30 days.")
        @OptionGroup var options: ConfigOption
        func run() throws {
            let anchors = IACACommand.manager(options).snapshot.anchors
            guard !anchors.isEmpty else { throw ValidationError("the trust directory holds no IACA") }
            let now = Date()
            for anchor in anchors {
                let state = !anchor.isValid(at: now) ? "EXPIRED " : (anchor.notAfter.timeIntervalSince(now) < 30 * 86_400 ? "EXPIRING" : "ok      ")
                print("\(state) \(IACACommand.describe(anchor))")
            }
        }
    }
}
