import ArgumentParser
import Encodings
import Foundation
import MDoc
import TrustLists
import TrustManagement
import VerifierConfiguration

extension IACACommand {
    /// `verifierd iaca import-lote --source NAME [--dry-run] [--at TIME] FILE`: a list of trusted entities imported by
    /// hand, offline, as `POST /v1/admin/lotes/{source}` does.
    struct ImportLoTE: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import-lote",
            abstract: "Verify a list of trusted entities (ETSI TS 119 602) and replace the anchors of its source.",
            discussion: """
                The source is one of trust.loteSources: its kind, signer anchors and scope apply. The list's JAdES \
                signature and signer are verified at the current time or --at, its JSON strictly against the kind's EU \
                profile, and its LoTESequenceNumber must not be lower than the list in force. Its services' certificates \
                replace the source's anchors in every trust set it feeds (IACAs; for pid lists also the SD-JWT VC \
                issuers), each for its service type. No CRL is fetched offline (the service checks the signer's CRL on \
                its scheduled and admin imports).
                """)
        @OptionGroup var options: ConfigOption
        @Option(help: "Source name, one of trust.loteSources.") var source: String
        @Flag(help: "Show what would change; write nothing.") var dryRun = false
        @Option(help: "Verify at this RFC 3339 time instead of now.") var at: String?
        @Argument(help: "The list file (compact JWS).") var file: String

        func validate() throws {
            guard VICALSource.isValidName(source) else {
                throw ValidationError("--source must be 1 to 32 lowercase letters, digits or dashes")
            }
            if let at, TDate.parse(at) == nil {
                throw ValidationError("--at must be an RFC 3339 time such as 2030-01-01T00:00:00Z")
            }
        }

        func run() async throws {
            let configuration = ServiceLoading.configuration(options)
            let sources: [LoTESource]
            do {
                sources = try ServiceKeyMaterial.loteSources(configuration.trust.loteSources)
            } catch {
                ServiceLoading.fail(error)
            }
            guard let listSource = sources.first(where: { $0.name == source }) else {
                throw CLIFailure.data("source \"\(source)\" is not in trust.loteSources")
            }
            if listSource.scope.providers != nil && !dryRun {
                throw CLIFailure.data("a \(listSource.kind.rawValue) list lives in the running service's memory (every replica fetches its own): import it with "
                                      + "POST /v1/admin/lotes/\(source); --dry-run verifies it here")
            }
            let bytes = try CLIInput.read(file)
            let store = await IACACommand.store(options)
            let importer = LoTEImporter(sources: sources, iaca: store.trust, sdJwtVcIssuers: store.sdJwtVcIssuers,
                                        providerAnchors: ListedProviderAnchors.Role.allCases.map(ListedProviderAnchors.init(role:)),
                                        verifier: LoTEVerifier(clockSkew: TimeInterval(configuration.verification.clockSkewSeconds)))
            let time = at.flatMap(TDate.parse) ?? Date()
            let verified: VerifiedLoTE
            do {
                verified = try importer.verify(bytes, source: listSource, at: time)
            } catch {
                throw CLIFailure.data("\(file): \(error)")
            }
            let results: [LoTEImportResult]
            do {
                results = try await importer.importVerified(verified, source: listSource, dryRun: dryRun, at: Date(), actor: "cli")
            } catch {
                throw CLIFailure.data("\(file): \(error)")
            }
            print("\(dryRun ? "dry run: " : "")\(verified.kind.rawValue) list of \(verified.operatorName), sequence \(verified.sequenceNumber), "
                  + "issued \(RFC3339Timestamp.string(verified.issued)), next update \(RFC3339Timestamp.string(verified.nextUpdate)), "
                  + "signed by \(verified.signer)")
            for grant in verified.grants {
                print("\(grant.grantsTrust ? "grants" : "grants nothing"): \(grant.purpose.rawValue) \(grant.entityName) \(grant.sha256)")
            }
            for result in results {
                for anchor in result.diff.added { print("\(result.trustSet) added     \(IACACommand.describe(anchor))") }
                for anchor in result.diff.removed { print("\(result.trustSet) removed   \(IACACommand.describe(anchor))") }
                for anchor in result.diff.unchanged { print("\(result.trustSet) unchanged \(IACACommand.describe(anchor))") }
            }
            for skipped in verified.skipped { print("skipped   \(skipped.index): \(skipped.reason)") }
        }
    }
}
