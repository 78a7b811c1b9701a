import AppleWallet
import ArgumentParser
import Foundation
import MDoc
import TrustStore
import VerifierService

/// `verifierd decrypt`: offline decrypt and verify of an Apple envelope with the configured keys.
struct DecryptCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decrypt", abstract: "Decrypt and verify an APPLE-HPKE-v1 envelope offline; prints the report.")

    @OptionGroup var options: ConfigOption
    @Option(help: "Envelope file (raw CBOR, or hex or base64 text).") var envelope: String
    @Option(help: "Nonce as hex.") var nonce: String
    @Option(help: "Verification time (RFC 3339); default now.") var at: String?

    func run() async throws {
        let configuration = ServiceLoading.configuration(options)
        let service = await ServiceLoading.service(configuration, logger: ServiceLoading.logger(toStandardError: true))
        guard let apple = configuration.apple else { throw ValidationError("the configuration has no apple section") }
        guard let nonceBytes = [UInt8](hexString: nonce) else { throw ValidationError("--nonce is not hex") }
        var time = Date()
        if let at {
            guard let parsed = TDate.parse(at) else { throw ValidationError("--at is not an RFC 3339 date-time") }
            time = parsed
        }
        let data = Array(try Data(contentsOf: URL(fileURLWithPath: envelope)))
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let bytes = [UInt8](hexString: text) ?? Data(base64Encoded: text).map(Array.init) ?? data
        print(await service.verifyAppleEnvelope(bytes, nonce: nonceBytes, merchantId: apple.merchantId, teamId: apple.teamId, at: time))
    }
}

/// `verifierd transcript`: the AppleHandover transcript and infoHash per configured key.
struct TranscriptCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "transcript", abstract: "Print the Apple SessionTranscript (hex) and infoHash for each configured key.")

    @OptionGroup var options: ConfigOption
    @Option(help: "Nonce as hex.") var nonce: String

    func run() throws {
        let configuration = ServiceLoading.configuration(options)
        let service = ServiceLoading.localService(configuration, logger: ServiceLoading.logger(toStandardError: true))
        guard let apple = configuration.apple else { throw ValidationError("the configuration has no apple section") }
        guard let nonceBytes = [UInt8](hexString: nonce) else { throw ValidationError("--nonce is not hex") }
        for key in service.merchantKeyHashes {
            let transcript = try AppleSessionTranscript(nonce: nonceBytes, merchantId: apple.merchantId,
                                                        teamId: apple.teamId, pkRHash: key)
            print("pkRHash     \(key.hexString)")
            print("transcript  \(transcript.bytes.hexString)")
            print("infoHash    \(transcript.infoHash.hexString)")
        }
    }
}
