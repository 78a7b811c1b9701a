import CFuzzerDriver
import Foundation
import MDoc
import SDJWT
import SDJWTVC
import StrictJSON
import TrustStore

private let time = Date(timeIntervalSince1970: 1_893_456_000)
private let options = SDJWTVCOptions(
    verificationTime: time,
    keyBinding: KeyBindingExpectation(nonce: "n", audience: "origin:https://fuzz.example",
                                      notBefore: time.addingTimeInterval(-300), notAfter: time.addingTimeInterval(300)),
    query: SDJWTVCQuery(vctValues: ["urn:eudi:pid:1"], claims: [.init(path: [.name("given_name")]),
                                                                  .init(path: [.name("nationalities"), .all])]))
/// No anchor: whatever the input, nothing may verify.
private let verifier = SDJWTVCVerifier(trust: .empty)

/// SD-JWT VC verification on any input. The first byte picks what the rest is read as:
/// 0: a whole presentation, through prepare and finish (nothing may verify without an anchor, and no status list may
/// be named for a credential that is not valid as issued); 1: one disclosure; 2: a JSON payload with the rest of
/// the input's lines as disclosures, through the resolver; 3: strict JSON; 4: a JWT VC Issuer Metadata document (or,
/// failing that, a key set) for a fixed `iss`.
public func fuzzSDJWTVC(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let start, count > 0 else { return 0 }
    let selector = start[0] % 5
    let bytes = Array(UnsafeBufferPointer(start: start + 1, count: count - 1))
    let text = String(decoding: bytes, as: UTF8.self)
    switch selector {
    case 0:
        let prepared = verifier.prepare(text, options: options)
        if prepared.statusReference != nil { fatalError("a status list was named for a credential without a trusted issuer") }
        if verifier.finish(prepared, statusEvidence: nil).verified { fatalError("a presentation verified without any anchor") }
    case 1:
        if let disclosure = try? Disclosure(Substring(text), limits: SDJWTLimits()), disclosure.digest != Disclosure.digest(of: text) {
            fatalError("a disclosure's digest is not over its received string")
        }
    case 2:
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let first = lines.first, let payload = try? JSONParser.parse(Array(first.utf8)) else { return 0 }
        let disclosures = lines.dropFirst().compactMap { try? Disclosure($0, limits: SDJWTLimits()) }
        if let resolved = try? DisclosureResolver().resolve(payload: payload, disclosures: disclosures),
           resolved.disclosedPaths.count != disclosures.count {
            fatalError("a disclosure was applied twice or not at all")
        }
    case 3:
        _ = try? JSONParser.parse(bytes)
    default:
        let iss = "https://issuer.example"
        var keys: SDJWTVCIssuerKeys?
        switch try? JWTVCIssuerMetadata.document(bytes, iss: iss, source: "fuzz") {
        case .jwks(let found)?: keys = found
        case .jwksURI(let uri)?: if !uri.hasPrefix("https://") && !uri.hasPrefix("http://") { fatalError("a jwks_uri that is not http(s)") }
        case nil: keys = try? JWTVCIssuerMetadata.keySet(bytes, issuer: iss, source: "fuzz")
        }
        if let keys {
            let ids = keys.keys.compactMap(\.id)
            if keys.issuer != iss || keys.keys.isEmpty || keys.keys.count > JWTVCIssuerMetadata.maximumKeys || Set(ids).count != ids.count {
                fatalError("a key set broke its rules: issuer, count or a kid twice")
            }
        }
    }
    return 0
}

@main
enum FuzzSDJWTVCMain {
    static func main() {
        exit(verifierd_fuzz_main(CommandLine.argc, CommandLine.unsafeArgv, fuzzSDJWTVC))
    }
}
