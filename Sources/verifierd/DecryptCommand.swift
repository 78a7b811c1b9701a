import StrictJSON
import AppleWallet
import ArgumentParser
import Encodings
import Foundation
import MDoc
import TrustStore
import VerifierService

/// `verifierd decrypt`: offline decrypt and verify of an Apple envelope with the configured keys.
struct DecryptCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decrypt", abstract: "Decrypt and verify an APPLE-HPKE-v1 envelope offline; prints the report.",
        discussion: """
            Exit codes: 0 verified, 1 not verified (the report says why), 2 unusable input (a file that cannot be \
            read, a nonce that is neither hex nor base64), 78 configuration error.
            --envelope takes the envelope as raw CBOR, hex or base64 text, or the JSON body of POST /v1/apple/verify \
            (its encryptedData, and its nonce unless --nonce is given).
            """)

    @OptionGroup var options: ConfigOption
    @Option(help: "Envelope file: raw CBOR, hex or base64 text, or a /v1/apple/verify JSON request.") var envelope: String
    @Option(help: "Nonce: hex (only hex digits) or base64, or prefixed hex: / base64:. Default: the JSON request's.")
    var nonce: String?
    @Option(help: "Verification time (RFC 3339); default now.") var at: String?

    func validate() throws {
        if let at, TDate.parse(at) == nil { throw ValidationError("--at is not an RFC 3339 date-time") }
    }

    func run() async throws {
        let configuration = ServiceLoading.configuration(options)
        guard let apple = configuration.apple else { throw ValidationError("the configuration has no apple section") }
        let time = at.flatMap(TDate.parse) ?? Date()
        let input: (envelope: [UInt8], nonce: [UInt8])
        do {
            input = try Self.readInput(envelope: envelope, nonce: nonce)
        } catch {
            FileHandle.standardError.write(Data("verifierd decrypt: \(error)\n".utf8))
            throw ExitCode(2)
        }
        let service = await ServiceLoading.service(configuration, logger: ServiceLoading.logger(toStandardError: true))
        let result = await service.verifyAppleEnvelopeReport(input.envelope, nonce: input.nonce, merchantId: apple.merchantId,
                                                             teamId: apple.teamId, at: time)
        print(result.text)
        if !result.verified { throw ExitCode(1) }
    }

    /// The envelope bytes and nonce from the file and option (see the discussion above).
    static func readInput(envelope path: String, nonce option: String?) throws -> (envelope: [UInt8], nonce: [UInt8]) {
        let data = try CLIInput.read(path)
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if text.hasPrefix("{") {
            // Read exactly as POST /v1/apple/verify reads it: unknown and repeated fields are refused.
            let request: AppleVerifyRequest
            do {
                request = try AppleVerifyRequest.decode(Array(data))
            } catch {
                throw ValidationError("\(path) is JSON but not a /v1/apple/verify request: \(error.detail)")
            }
            FileHandle.standardError.write(Data("verifierd decrypt: \(path) is a JSON request: using its encryptedData\((option == nil) ? " and nonce" : "")\n".utf8))
            guard let bytes = Base64Input.decode(request.encryptedData) else { throw ValidationError("\(path): encryptedData is not base64") }
            let nonce = option ?? request.nonce
            return (bytes, try CLIInput.bytes(nonce, option: option == nil ? "the request's nonce" : "--nonce"))
        }
        guard let option else { throw ValidationError("--nonce is required unless --envelope is a JSON request with a nonce") }
        let bytes = [UInt8](hexString: text) ?? Base64Input.decode(text) ?? data
        return (bytes, try CLIInput.bytes(option, option: "--nonce"))
    }
}

/// `verifierd transcript`: the AppleHandover transcript and infoHash per configured key.
struct TranscriptCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "transcript", abstract: "Print the Apple SessionTranscript (hex) and infoHash for each configured key.")

    @OptionGroup var options: ConfigOption
    @Option(help: "Nonce: hex (only hex digits) or base64, or prefixed hex: / base64:.") var nonce: String

    func run() throws {
        let configuration = ServiceLoading.configuration(options)
        let service = ServiceLoading.localService(configuration, logger: ServiceLoading.logger(toStandardError: true))
        guard let apple = configuration.apple else { throw ValidationError("the configuration has no apple section") }
        let nonceBytes = try CLIInput.bytes(nonce, option: "--nonce")
        for key in service.merchantKeyHashes {
            let transcript = try AppleSessionTranscript(nonce: nonceBytes, merchantId: apple.merchantId,
                                                        teamId: apple.teamId, pkRHash: key)
            print("pkRHash     \(key.hexString)")
            print("transcript  \(transcript.bytes.hexString)")
            print("infoHash    \(transcript.infoHash.hexString)")
        }
    }
}
