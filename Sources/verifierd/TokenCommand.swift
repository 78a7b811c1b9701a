import ArgumentParser
import Foundation
import ReaderToken
import VerifierService

/// `verifierd token keygen|mint`: reader-token signing keys and tokens for support and testing.
struct TokenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token", abstract: "Reader tokens for Apple's Verifier API.", subcommands: [Keygen.self, Mint.self])

    struct Keygen: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write a new P-256 signing key (PKCS#8 PEM, mode 0600); print the public key to upload to Apple Business Register.")
        @Option(help: "Where to write the private key.") var out: String
        func run() throws {
            let key = ReaderTokenSigningKey.generate()
            try key.writePrivateKey(to: URL(fileURLWithPath: out))
            print(key.publicKeyPEM)
        }
    }

    struct Mint: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Mint one reader token with the configured key.")
        @OptionGroup var options: ConfigOption
        @Option(name: .customLong("reader-instance-id"), help: "The reader instance identifier.") var readerInstanceID: String
        func run() throws {
            let configuration = ServiceLoading.configuration(options)
            let service = ServiceLoading.localService(configuration, logger: ServiceLoading.logger(toStandardError: true))
            guard let minted = try service.mintReaderToken(readerInstanceIdentifier: readerInstanceID) else {
                throw ValidationError("readerTokens is not configured")
            }
            print(minted.token)
        }
    }
}
