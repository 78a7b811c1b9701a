import CFuzzerDriver
import AppleWallet
import Crypto
import Foundation
import MDoc
import TrustStore

private let key = MerchantEncryptionKey(privateKey: try! P256.KeyAgreement.PrivateKey(rawRepresentation: [UInt8](repeating: 1, count: 32)), label: "fuzz")

/// Parses any input as an APPLE-HPKE-v1 envelope and runs the whole Apple path on it.
public func fuzzAppleEnvelope(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: start, count: count))
    let report = AppleIdentityVerifier(keys: [key]).verify(
        envelope: bytes, nonce: [1, 2, 3], merchantId: "m", teamId: "t", trust: .empty,
        options: VerificationOptions(verificationTime: Date(timeIntervalSince1970: 1_900_000_000)))
    if report.verified { fatalError("an envelope verified without any trust anchor") }
    return 0
}

/// libFuzzer's driver with this harness (`FuzzAppleEnvelope -help=1` lists its flags).
@main
enum FuzzAppleEnvelopeMain {
    static func main() {
        exit(verifierd_fuzz_main(CommandLine.argc, CommandLine.unsafeArgv, fuzzAppleEnvelope))
    }
}
