import CFuzzerDriver
import Crypto
import Foundation
import MDoc
import TrustStore
import WebPresentment

private let key = try! P256.KeyAgreement.PrivateKey(rawRepresentation: [UInt8](repeating: 1, count: 32))
private let transcript = DCAPISessionTranscript(encryptionInfo: "gmVkY2Fwaa", origin: "https://fuzz.example")
private let options: VerificationOptions = {
    var options = VerificationOptions(verificationTime: Date(timeIntervalSince1970: 1_900_000_000))
    options.requestedItems = RequestedItems(documents: [.init(docType: "org.iso.18013.5.1.mDL", nameSpaces: [
        ("org.iso.18013.5.1", [.init("family_name", intentToRetain: false)]),
    ])])
    return options
}()

/// The Annex C answer path on any input. The first byte picks what the rest is read as:
/// 0: CBOR DCAPIEncryptedResponse, then HPKE open and verification; 1: the base64url string the browser returns;
/// 2: an encryptionInfo string (the stateless variant); 3: a decrypted plaintext, parsed and verified with a
/// request to compare against; 4: an origin.
public func fuzzWebResponse(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let start, count > 0 else { return 0 }
    let selector = start[0] % 5
    let bytes = Array(UnsafeBufferPointer(start: start + 1, count: count - 1))
    let text = String(decoding: bytes, as: UTF8.self)
    switch selector {
    case 0:
        if let response = try? DCAPIEncryptedResponse(bytes: bytes) {
            if (try? WebResponseDecryptor.open(response, recipientKey: key, transcript: transcript)) != nil {
                fatalError("a random ciphertext decrypted")
            }
        }
    case 1:
        _ = try? DCAPIEncryptedResponse(base64URL: text)
    case 2:
        if let info = try? EncryptionInfo(base64URL: text), info.nonce.count < 16 { fatalError("short nonce accepted") }
    case 3:
        if let response = try? DeviceResponse(bytes: bytes) {
            let report = MDocVerifier(trust: .empty).verify(response, sessionTranscript: transcript.bytes, options: options)
            if report.verified { fatalError("a response verified without any trust anchor") }
            for document in report.documents where document.claims.contains(where: {
                !options.requestedItems!.isRequested(docType: document.docType, nameSpace: $0.nameSpace, identifier: $0.identifier)
            }) {
                fatalError("an unrequested claim reached the report")
            }
        }
    default:
        if let origin = SerializedOrigin(text), origin.text.hasSuffix("/") { fatalError("a trailing slash was accepted") }
    }
    return 0
}

/// libFuzzer's driver with this harness (`FuzzWebResponse -help=1` lists its flags).
@main
enum FuzzWebResponseMain {
    static func main() {
        exit(verifierd_fuzz_main(CommandLine.argc, CommandLine.unsafeArgv, fuzzWebResponse))
    }
}
