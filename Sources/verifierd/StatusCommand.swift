import ArgumentParser
import Encodings
import Foundation
import MDoc
import VerifierService

/// `verifierd status check`: fetch, verify and read one status list entry, as `mso.status` would.
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Revocation status lists.", subcommands: [Check.self])

    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Fetch and verify a status list; print the entry's status. Exit 0 valid, 1 otherwise.")
        @OptionGroup var options: ConfigOption
        @Option(help: "The list URI, as the MSO names it.") var uri: String
        @Option(help: "Index in a Token Status List.") var idx: UInt64?
        @Option(help: "Identifier (hex) in an identifier list.") var id: String?
        @Option(help: "The time to check at (RFC 3339); default now.") var at: String?

        func validate() throws {
            guard (idx == nil) != (id == nil) else { throw ValidationError("give exactly one of --idx or --id") }
            if let id, [UInt8](hexString: id) == nil { throw ValidationError("--id is not hex") }
            if let at, TDate.parse(at) == nil { throw ValidationError("--at is not an RFC 3339 date-time") }
        }

        func run() async throws {
            let identifier = id.flatMap { [UInt8](hexString: $0) }
            let configuration = ServiceLoading.configuration(options)
            let service = await ServiceLoading.service(configuration, logger: ServiceLoading.logger(toStandardError: true))
            let (valid, text) = await service.checkStatus(uri: uri, index: idx, identifier: identifier,
                                                         at: at.flatMap(TDate.parse))
            print(text)
            if !valid { throw ExitCode(1) }
        }
    }
}
