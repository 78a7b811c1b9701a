import ArgumentParser
import PostgresStore

/// verifierd: ISO 18013-5 mdoc and Apple Wallet identity verification service, with its operations CLI.
@main
struct Verifierd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verifierd",
        abstract: "Verify ISO/IEC 18013-5 mobile documents and Apple Wallet identity responses.",
        version: VerifierdVersion.text,
        subcommands: [Serve.self, IACACommand.self, SDJWTVCIssuersCommand.self, DecryptCommand.self, TranscriptCommand.self, TokenCommand.self, StatusCommand.self,
                      WebCommand.self, OpenID4VPCommand.self, ReaderAuthCommand.self, StoreCommand.self, HealthCommand.self],
        defaultSubcommand: Serve.self)
}

/// The `--config` option shared by every command.
struct ConfigOption: ParsableArguments {
    @Option(name: .long, help: "Configuration file (JSON).")
    var config: String = "config/verifierd.json"
}

/// The version `verifierd --version` prints.
enum VerifierdVersion {
    static let text = "verifierd 0.17.0 (schema \(SchemaMigrations.latestVersion))"
}
