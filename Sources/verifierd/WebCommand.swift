import ArgumentParser
import Crypto
import Encodings
import Foundation
import MDoc
import VerifierService
import WebPresentment

/// `verifierd web`: offline tools for the Annex C web flow.
struct WebCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "web", abstract: "ISO 18013-7 Annex C (org-iso-mdoc) tools.", subcommands: [WebDecrypt.self])
}

/// `verifierd web decrypt`: decrypt and verify one answer with a key the caller holds.
struct WebDecrypt: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decrypt",
        abstract: "Decrypt and verify an org-iso-mdoc answer (credential.data.response); prints the report.",
        discussion: "String options may be given as @FILE to read the value from a file. Exit status 0 when verified, 1 otherwise.")

    @OptionGroup var options: ConfigOption
    @Option(name: .customLong("encryption-info"), help: "The exact encryptionInfo string the page was given (base64url).")
    var encryptionInfo: String
    @Option(help: "The origin the browser saw, serialized (https://host[:port], no trailing slash).") var origin: String
    @Option(help: "The recipient private key: PEM file, or a file holding the raw scalar as hex or base64.") var key: String
    @Option(help: "The answer string (base64url).") var response: String
    @Option(help: "Verification time (RFC 3339); default now.") var at: String?

    func validate() throws {
        guard SerializedOrigin(origin) != nil else {
            throw ValidationError("--origin is not a serialized origin (scheme://host[:port], lower case, no trailing slash)")
        }
        if let at, TDate.parse(at) == nil { throw ValidationError("--at is not an RFC 3339 date-time") }
    }

    func run() async throws {
        let configuration = ServiceLoading.configuration(options)
        let service = await ServiceLoading.service(configuration, logger: ServiceLoading.logger(toStandardError: true))
        guard let serialized = SerializedOrigin(origin) else { throw ValidationError("--origin is not a serialized origin") }
        let time = at.flatMap(TDate.parse) ?? Date()
        let text = try Self.value(response)
        let result = await service.verifyWebResponse(text, encryptionInfo: try Self.value(encryptionInfo), origin: serialized,
                                                     recipientKey: try Self.recipientKey(file: key), at: time)
        print(result.text)
        if !result.verified { throw ExitCode(1) }
    }

    /// The option's text, or the trimmed content of the file it names after `@`.
    static func value(_ option: String) throws -> String {
        guard option.hasPrefix("@") else { return option }
        let text = try String(contentsOf: URL(fileURLWithPath: String(option.dropFirst())), encoding: .utf8)
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func recipientKey(file: String) throws -> P256.KeyAgreement.PrivateKey {
        let text = try String(contentsOf: URL(fileURLWithPath: file), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        if text.contains("-----BEGIN"),
           let block = try? PEM.blocks(in: text).first(where: { PEM.privateKeyLabels.contains($0.label) }),
           let key = try? P256.KeyAgreement.PrivateKey(derRepresentation: block.bytes) {
            return key
        }
        let raw = [UInt8](hexString: text) ?? Data(base64Encoded: text).map(Array.init)
        guard let raw, raw.count == 32, let key = try? P256.KeyAgreement.PrivateKey(rawRepresentation: raw) else {
            throw ValidationError("--key \(file) holds neither a P-256 PEM key nor a 32-byte scalar in hex or base64")
        }
        return key
    }
}
