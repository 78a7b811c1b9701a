import CFuzzerDriver
import Crypto
import Foundation
import MDoc
import OpenID4VP
import StrictJSON

private let key = ResponseEncryptionKey(
    privateKey: try! P256.KeyAgreement.PrivateKey(rawRepresentation: [UInt8](repeating: 1, count: 32)), kid: "fuzz")
private let query = DCQLQuery(RequestedItems(documents: [.init(docType: "org.iso.18013.5.1.mDL", nameSpaces: [
    ("org.iso.18013.5.1", [.init("family_name", intentToRetain: false)]),
])]))
private let encrypted = OpenID4VPSession(flow: .digitalCredentialsAPI, origin: "https://fuzz.example", nonce: "n", mode: .dcAPIJWT,
                                         key: key, query: query, clientId: nil, responseURI: nil)
private let plain = OpenID4VPSession(flow: .digitalCredentialsAPI, origin: "https://fuzz.example", nonce: "n", mode: .dcAPI,
                                     key: nil, query: query, clientId: nil, responseURI: nil)

/// The OpenID4VP answer path on any input. The first byte picks what the rest is read as:
/// 0: a compact JWE, opened with the session key; 1: a decrypted response (JSON with vp_token); 2: a vp_token JSON
/// object, read against the query; 3: a caller's DCQL query (JSON).
public func fuzzOpenID4VP(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let start, count > 0 else { return 0 }
    let selector = start[0] % 4
    let bytes = Array(UnsafeBufferPointer(start: start + 1, count: count - 1))
    switch selector {
    case 0:
        if (try? EncryptedAuthorizationResponse.open(String(decoding: bytes, as: UTF8.self), key: key)) != nil {
            fatalError("a random JWE decrypted")
        }
    case 1:
        if let token = try? VPToken.fromDecryptedResponse(bytes) {
            _ = try? OpenID4VPPresentations(.plain(token), session: plain)
        }
    case 2:
        guard JSONSyntaxScan.check(bytes) == nil, let token = try? JSONDecoder().decode(VPToken.self, from: Data(bytes)) else { return 0 }
        if let read = try? OpenID4VPPresentations(.plain(token), session: plain) {
            for presentation in read.presentations where query.credential(presentation.credentialId) == nil {
                fatalError("a presentation for an id outside the query was read")
            }
        }
        if (try? OpenID4VPPresentations(.plain(token), session: encrypted)) != nil {
            fatalError("an unencrypted vp_token was read for an encrypted session")
        }
    default:
        guard JSONSyntaxScan.check(bytes) == nil, let raw = try? JSONDecoder().decode(RawJSON.self, from: Data(bytes)) else { return 0 }
        if let parsed = try? DCQLQuery(parsing: raw), parsed.credentials.isEmpty || parsed.credentials.count > 4 {
            fatalError("a query outside the limits was read")
        }
    }
    return 0
}

/// libFuzzer's driver with this harness (`FuzzOpenID4VP -help=1` lists its flags).
@main
enum FuzzOpenID4VPMain {
    static func main() {
        exit(verifierd_fuzz_main(CommandLine.argc, CommandLine.unsafeArgv, fuzzOpenID4VP))
    }
}
