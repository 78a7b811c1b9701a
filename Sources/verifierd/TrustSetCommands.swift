import ArgumentParser
import Encodings
import Foundation
import TrustManagement
import TrustStore
import VerifierService

/// A trust set the command line manages: the IACAs (`verifierd iaca`) or the SD-JWT VC issuer anchors
/// (`verifierd sd-jwt-vc-issuers`), each the configured store's (its directory, or the database with the PostgreSQL
/// store), with the same validation and atomic writes as the admin API.
protocol TrustSetKind {
    /// "IACA roots", "SD-JWT VC issuer CAs".
    static var what: String { get }
    /// The option scoping added anchors: `doc-type` for IACAs, `vct` for SD-JWT VC issuers.
    static var scopeOption: String { get }
    static func manager(_ options: ConfigOption) async -> LiveTrustSet
}

enum TrustSetCLI {
    static func describe(_ anchor: TrustAnchor, scope: String = "docTypes") -> String {
        let scoped = anchor.metadata.docTypes.map { " \(scope)=" + $0.joined(separator: ",") } ?? ""
        return "\(anchor.sha256)  \(RFC3339Timestamp.string(anchor.notBefore)) .. \(RFC3339Timestamp.string(anchor.notAfter))  "
            + "\(anchor.subject)  [\(anchor.metadata.source)\(scoped)]"
    }
}

struct TrustSetList<Kind: TrustSetKind>: AsyncParsableCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(commandName: "list", abstract: "List the trusted \(Kind.what).") }
    @OptionGroup var options: ConfigOption
    func run() async {
        for anchor in await Kind.manager(options).snapshot.anchors { print(TrustSetCLI.describe(anchor)) }
    }
}

struct TrustSetAdd<Kind: TrustSetKind>: AsyncParsableCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(commandName: "add", abstract: "Add \(Kind.what) from PEM or DER files.") }
    @OptionGroup var options: ConfigOption
    @Flag(help: "Trust certificates outside their validity period.") var allowExpired = false
    @Option(name: .customLong(Kind.scopeOption), help: "Scope the anchors to this value (repeatable); default: any.")
    var scope: [String] = []
    @Argument(help: "Certificate files.") var files: [String]
    func run() async throws {
        var certificates: [[UInt8]] = []
        for file in files {
            do {
                certificates += try CertificateParsing.derCertificates(from: try CLIInput.read(file), source: file)
            } catch let error as TrustAnchorError {
                throw CLIFailure.data(error.description)
            }
        }
        let anchors: [TrustAnchor]
        do {
            anchors = try LiveTrustSet.validate(certificates, docTypes: scope.isEmpty ? nil : scope, allowExpired: allowExpired,
                                                     now: Date(), allowExpiredHint: "pass --allow-expired")
        } catch {
            throw CLIFailure.data(error.description)
        }
        _ = try await Kind.manager(options).add(anchors, actor: "cli")
        for anchor in anchors { print("added \(TrustSetCLI.describe(anchor))") }
    }
}

struct TrustSetRemove<Kind: TrustSetKind>: AsyncParsableCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(commandName: "remove", abstract: "Remove one of the \(Kind.what) by its SHA-256.") }
    @OptionGroup var options: ConfigOption
    @Argument(help: "Lowercase hex SHA-256 of the certificate DER.") var sha256: String
    @Flag(help: "Allow removing the last anchor.") var allowEmpty = false
    func run() async throws {
        _ = try await Kind.manager(options).remove(sha256: sha256, allowEmpty: allowEmpty, actor: "cli")
        print("removed \(sha256)")
    }
}

/// The IACAs of the configured store.
enum IACASet: TrustSetKind {
    static let what = "IACA roots"
    static let scopeOption = "doc-type"
    static func manager(_ options: ConfigOption) async -> LiveTrustSet { await IACACommand.store(options).trust }
}

/// The SD-JWT VC issuer anchors of the configured store (`sdJwtVc`).
enum SDJWTVCIssuerSet: TrustSetKind {
    static let what = "SD-JWT VC issuer CAs"
    static let scopeOption = "vct"
    static func manager(_ options: ConfigOption) async -> LiveTrustSet {
        guard let issuers = await IACACommand.store(options).sdJwtVcIssuers else {
            ServiceLoading.fail(ConfigurationError(key: "sdJwtVc", "the configuration has no sdJwtVc section"))
        }
        return issuers
    }
}

/// `verifierd sd-jwt-vc-issuers list|add|remove`.
struct SDJWTVCIssuersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sd-jwt-vc-issuers",
        abstract: "Manage the trusted SD-JWT VC issuer CAs (sdJwtVc.issuerDirectory, or the database with store.kind postgres).",
        subcommands: [TrustSetList<SDJWTVCIssuerSet>.self, TrustSetAdd<SDJWTVCIssuerSet>.self, TrustSetRemove<SDJWTVCIssuerSet>.self])
}
