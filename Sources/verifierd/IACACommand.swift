import ArgumentParser
import Encodings
import Foundation
import MDoc
import TrustLists
import TrustManagement
import TrustStore
import VerifierService

/// `verifierd iaca list|add|remove|check|import-vical|import-lote|export|import`: the trust set in force (the trust directory, or
/// the database with the PostgreSQL store), with the same validation and atomic writes as the admin API.
struct IACACommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "iaca", abstract: "Manage the trusted IACA roots (the directory, or the database with store.kind postgres).",
        subcommands: [TrustSetList<IACASet>.self, TrustSetAdd<IACASet>.self, TrustSetRemove<IACASet>.self, Check.self,
                      ImportVICAL.self, ImportLoTE.self, Export.self, Import.self])

    /// The configured store's trust set (the database is migrated first, like at start-up).
    static func store(_ options: ConfigOption) async -> ServiceStorage {
        let configuration = ServiceLoading.configuration(options)
        do {
            return try await ServiceStorage.open(configuration, logger: ServiceLoading.logger(toStandardError: true))
        } catch {
            ServiceLoading.fail(error)
        }
    }

    static func manager(_ options: ConfigOption) async -> LiveTrustSet {
        await store(options).trust
    }

    static func describe(_ anchor: TrustAnchor) -> String { TrustSetCLI.describe(anchor) }

    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check the trust set in force; list anchors expired or expiring within trust.expiringWindowDays.",
            discussion: """
                Exit codes: 0 every anchor valid, 1 an anchor is expired (or, with --fail-on-expiring, expiring), \
                2 no anchor at all, 78 configuration error.
                """)
        @OptionGroup var options: ConfigOption
        @Flag(help: "Exit 1 when an anchor expires within trust.expiringWindowDays too.") var failOnExpiring = false
        func run() async throws {
            let configuration = ServiceLoading.configuration(options)
            let anchors = await IACACommand.manager(options).snapshot.anchors
            guard !anchors.isEmpty else {
                FileHandle.standardError.write(Data("verifierd iaca check: the trust set holds no IACA\n".utf8))
                throw ExitCode(2)
            }
            let now = Date()
            let window = TimeInterval(configuration.trust.expiringWindowDays) * 86_400
            var failed = false
            for anchor in anchors {
                let expired = !anchor.isValid(at: now)
                let expiring = !expired && anchor.notAfter.timeIntervalSince(now) < window
                if expired || (expiring && failOnExpiring) { failed = true }
                print("\(expired ? "EXPIRED " : expiring ? "EXPIRING" : "ok      ") \(IACACommand.describe(anchor))")
            }
            if failed { throw ExitCode(1) }
        }
    }

    struct ImportVICAL: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import-vical",
            abstract: "Verify a VICAL and replace the anchors of its source with its entries.",
            discussion: """
                The VICAL's COSE signature and signer chain are verified up to the source's signer anchor (--signer-anchor, \
                or trust.vicalSigners in the configuration), at the current time or --at; a list older than the one in \
                force (vicalIssueID) is refused, and so is a list without a vicalIssueID once the list in force has one. \
                Other sources and manual anchors are left alone.
                """)
        @OptionGroup var options: ConfigOption
        @Option(help: "Source name (lowercase letters, digits, dashes), e.g. aamva.") var source: String
        @Option(help: "PEM or DER certificate the VICAL signer must chain to (default: trust.vicalSigners.<source>).")
        var signerAnchor: String?
        @Flag(help: "Show what would change; write nothing.") var dryRun = false
        @Option(help: "Verify at this RFC 3339 time instead of now.") var at: String?
        @Argument(help: "The VICAL file (COSE_Sign1 CBOR).") var file: String

        func validate() throws {
            guard ServiceConfiguration.VICALSource.isValidName(source) else {
                throw ValidationError("--source must be 1 to 32 lowercase letters, digits or dashes")
            }
            if let at, TDate.parse(at) == nil {
                throw ValidationError("--at must be an RFC 3339 time such as 2025-11-18T19:00:00Z")
            }
        }

        func run() async throws {
            let configuration = ServiceLoading.configuration(options)
            guard let anchorFile = signerAnchor.map({ URL(fileURLWithPath: $0) }) ?? configuration.trust.vicalSigners[source] else {
                throw CLIFailure.data("source \"\(source)\" has no signer anchor: pass --signer-anchor or configure trust.vicalSigners.\(source)")
            }
            let anchorBytes = try CLIInput.read(anchorFile.path)
            let bytes = try CLIInput.read(file)
            let anchor = try VICALSignerAnchor(pemOrDER: anchorBytes, source: anchorFile.path)
            let time = at.flatMap(TDate.parse) ?? Date()
            let verifier = VICALVerifier(clockSkew: TimeInterval(configuration.verification.clockSkewSeconds))
            let verified = try verifier.verify(bytes, source: source, signerAnchor: anchor, at: time)
            let result = try await IACACommand.manager(options).importVICAL(verified, dryRun: dryRun, now: Date(), actor: "cli")
            let vical = verified.vical
            print("\(dryRun ? "dry run: " : "")VICAL from \(vical.provider), issue \(vical.issueID.map(String.init) ?? "-"), "
                  + "dated \(RFC3339Timestamp.string(vical.date)), signed by \(verified.signer)")
            print("\(verified.entryCount) entries, \(verified.anchors.count) anchors, \(verified.skipped.count) skipped")
            for anchor in result.diff.added { print("added     \(IACACommand.describe(anchor))") }
            for anchor in result.diff.removed { print("removed   \(IACACommand.describe(anchor))") }
            for anchor in result.diff.unchanged { print("unchanged \(IACACommand.describe(anchor))") }
            for skipped in verified.skipped { print("skipped   entry \(skipped.index): \(skipped.reason)") }
        }
    }

    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write the trust set in force (anchors, their metadata and the VICALs in force) to a trust directory.",
            discussion: """
                The folder gets the same layout the service writes (versioned, switched atomically), so it can serve \
                as trust.iacaDirectory of a single process or be imported into another database with `iaca import --dir`.
                """)
        @OptionGroup var options: ConfigOption
        @Option(help: "The directory to write (created when absent).") var dir: String
        func run() async throws {
            let set = await IACACommand.manager(options).snapshot.set
            let directory = TrustDirectory(url: URL(fileURLWithPath: dir))
            try FileManager.default.createDirectory(at: directory.url, withIntermediateDirectories: true)
            try directory.write(set)
            print("exported \(set.anchors.count) anchors and \(set.lists.count) VICAL records to \(dir)")
        }
    }

    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Replace the trust set in force with a trust directory's (anchors, metadata, VICALs in force).",
            discussion: """
                Every certificate is validated as an IACA again. With the PostgreSQL store this commits one new version, \
                which every replica puts in force within two seconds. Refuses an empty set unless --allow-empty.
                """)
        @OptionGroup var options: ConfigOption
        @Option(help: "The trust directory to read.") var dir: String
        @Flag(help: "Allow importing a set with no anchor.") var allowEmpty = false
        func run() async throws {
            let set = try TrustDirectory(url: URL(fileURLWithPath: dir)).load()
            guard allowEmpty || !set.anchors.isEmpty else {
                throw CLIFailure.data("\(dir) holds no IACA; pass --allow-empty to trust none")
            }
            let snapshot = try await IACACommand.manager(options).replaceAll(with: set, actor: "cli")
            print("imported \(set.anchors.count) anchors and \(set.lists.count) VICAL records; version \(snapshot.version)")
        }
    }
}
