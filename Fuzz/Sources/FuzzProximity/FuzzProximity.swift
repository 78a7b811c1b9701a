import CFuzzerDriver
import Crypto
import Foundation
import MDoc
import Proximity

private let engagement = try! DeviceEngagement(bytes: [
    0xa2, 0x00, 0x63, 0x31, 0x2e, 0x30, 0x01, 0x82, 0x01, 0xd8, 0x18, 0x58, 0x4b,
] + coseKey(P256.KeyAgreement.PrivateKey(rawRepresentation: [UInt8](repeating: 2, count: 32)).publicKey))
private let session: ProximitySession = {
    let key = try! P256.KeyAgreement.PrivateKey(rawRepresentation: [UInt8](repeating: 1, count: 32))
    let transcript = ProximityTranscript(engagement: engagement, eReaderKey: key.publicKey, handover: nil)
    return ProximitySession(eReaderKey: key, eDeviceKey: engagement.eDeviceKey, transcript: transcript.bytes,
                            requested: RequestedItems(documents: []))
}()

private func coseKey(_ key: P256.KeyAgreement.PublicKey) -> [UInt8] {
    ProximityTranscript.coseKey(key)
}

/// The proximity parsers on any input. The first byte picks: 0 DeviceEngagement bytes, 1 the engagement as text
/// (`mdoc:` QR form or base64), 2 SessionData through decryption (a random ciphertext must never decrypt),
/// 3 a handover.
public func fuzzProximity(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let start, count > 0 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: start + 1, count: count - 1))
    switch start[0] % 4 {
    case 0:
        if let parsed = try? DeviceEngagement(bytes: bytes), parsed.bytes != bytes { fatalError("engagement bytes not kept") }
    case 1:
        _ = try? DeviceEngagement(text: String(decoding: bytes, as: UTF8.self))
    case 2:
        if case .response? = try? ProximityReader.receive(bytes, session: session) { fatalError("a random SessionData decrypted") }
    default:
        _ = try? ProximityTranscript.checkHandover(bytes)
    }
    return 0
}

/// libFuzzer's driver with this harness (`FuzzProximity -help=1` lists its flags).
@main
enum FuzzProximityMain {
    static func main() {
        exit(verifierd_fuzz_main(CommandLine.argc, CommandLine.unsafeArgv, fuzzProximity))
    }
}
