import CFuzzerDriver
import Foundation
import MDoc
import TrustStore

/// Parses and fully verifies any input as a DeviceResponse (every check runs on whatever parses).
public func fuzzDeviceResponse(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: start, count: count))
    let report = MDocVerifier(trust: .empty).verify(
        deviceResponse: bytes, sessionTranscript: [0x83, 0xf6, 0xf6, 0x80],
        options: VerificationOptions(verificationTime: Date(timeIntervalSince1970: 1_900_000_000)))
    if report.verified { fatalError("a document verified without any trust anchor") }
    return 0
}

/// libFuzzer's driver with this harness (`FuzzDeviceResponse -help=1` lists its flags).
@main
enum FuzzDeviceResponseMain {
    static func main() {
        exit(verifierd_fuzz_main(CommandLine.argc, CommandLine.unsafeArgv, fuzzDeviceResponse))
    }
}
