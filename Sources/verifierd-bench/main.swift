// verifierd-bench: per-operation cost of verification, next to the cost of the cryptography it cannot avoid.
//
//   swift run -c release verifierd-bench [seconds per row, default 2]
//
// Reads the demo material in TestVectors/demo (run from the repository root). Every row is one thread.
import AppleWallet
import CBOR
import CertificateRevocation
import Crypto
import Encodings
import Foundation
import MDoc
import SDJWT
import SDJWTVC
import StatusList
import StrictJSON
import TrustStore
import X509

func load(_ path: String) -> [UInt8] {
    guard let data = FileManager.default.contents(atPath: path) else { fatalError("cannot read \(path) (run from the repository root)") }
    return Array(data)
}

func hex(_ path: String) -> [UInt8] {
    let text = String(decoding: load(path), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    guard let bytes = [UInt8](hexString: text) else { fatalError("\(path) is not hex") }
    return bytes
}

let seconds = Double(CommandLine.arguments.dropFirst().first ?? "") ?? 2
nonisolated(unsafe) var sink = 0

@inline(never)
func measure(_ name: String, _ body: () -> Int) -> Double {
    for _ in 0..<50 { sink &+= body() }
    let clock = ContinuousClock()
    var iterations = 0
    let start = clock.now
    let limit = Duration.milliseconds(Int64(seconds * 1000))
    while clock.now - start < limit {
        for _ in 0..<20 { sink &+= body() }
        iterations += 20
    }
    let elapsed = clock.now - start
    let micros = Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) / 1e12
    let perOp = micros / Double(iterations)
    print(String(format: "%-58@ %10.1f µs  %9.0f /s", name as NSString, perOp, 1e6 / perOp))
    return perOp
}

let demo = "TestVectors/demo"
let envelope = hex("\(demo)/envelope.hex")
let plaintext = hex("\(demo)/plaintext.hex")
let nonce: [UInt8] = {
    let request = try! JSONSerialization.jsonObject(with: Data(load("\(demo)/verify-request.json"))) as! [String: String]
    return Array(Data(base64Encoded: request["nonce"]!)!)
}()
let keyPEM = String(decoding: load("\(demo)/keys/merchant-encryption.pem"), as: UTF8.self)
let key = try MerchantEncryptionKey(pem: keyPEM, label: "demo")
let anchors = try CertificateParsing.derCertificates(from: load("\(demo)/trusted-iaca/demo-iaca.pem")).map { try TrustAnchor(derBytes: $0) }
let trust = TrustSnapshot(anchors: anchors)
let verifier = AppleIdentityVerifier(keys: [key])
let options = VerificationOptions(verificationTime: Date(timeIntervalSince1970: 1_900_000_000))
let merchantId = "com.example.verifierd.demo", teamId = "DEMOTEAM01"
let opened = try verifier.open(envelope: envelope, nonce: nonce, merchantId: merchantId, teamId: teamId)
let identity = try CBORDecoder(limits: DeviceResponse.decodingLimits).decode(plaintext)["identity"]!
let responseBytes = Array(identity.encoded)
precondition(verifier.verify(envelope: envelope, nonce: nonce, merchantId: merchantId, teamId: teamId,
                             trust: trust, options: options).verified, "the demo envelope must verify")

// SD-JWT VC: a PID-sized presentation (TestVectors/sdjwt, case valid-anchor-in-x5c: 17 disclosures, a nested
// address, array elements, a KB-JWT, x5c of two), verified at the vectors' time against their issuer CA.
let sdJwtFolder = "TestVectors/sdjwt"
let sdJwtPresentation = String(decoding: load("\(sdJwtFolder)/cases/valid-anchor-in-x5c.txt"), as: UTF8.self)
let sdJwtTrust = TrustSnapshot(anchors: try CertificateParsing.derCertificates(from: load("\(sdJwtFolder)/pki/issuer-ca.pem"))
    .map { try TrustAnchor(derBytes: $0) })
let sdJwtTime = Date(timeIntervalSince1970: 1_893_456_000)
let sdJwtOptions = SDJWTVCOptions(verificationTime: sdJwtTime, keyBinding: KeyBindingExpectation(
    nonce: "n-0S6_WzA2Mj", audience: "origin:https://verifier.example",
    notBefore: sdJwtTime.addingTimeInterval(-300), notAfter: sdJwtTime.addingTimeInterval(300)))
let sdJwtVerifier = SDJWTVCVerifier(trust: sdJwtTrust)
@inline(never)
func verifySDJWTVC() -> Int {
    sdJwtVerifier.finish(sdJwtVerifier.prepare(sdJwtPresentation, options: sdJwtOptions), statusEvidence: nil).verified ? 1 : 0
}
precondition(verifySDJWTVC() == 1, "the PID-sized SD-JWT VC must verify")

if CommandLine.arguments.count > 3, CommandLine.arguments[2] == "sdjwt-iterations" {
    // As "iterations", for the SD-JWT VC verification (scripts/budget/cost-per-request.sh).
    let count = Int(CommandLine.arguments[3]) ?? 0
    var verified = 0
    for _ in 0..<count { verified += verifySDJWTVC() }
    print("verified \(verified) of \(count)")
    exit(verified == count ? 0 : 1)
}
if CommandLine.arguments.count > 2, CommandLine.arguments[2] == "sdjwt" {
    // CPU per SD-JWT VC verification next to its cryptography: two P-256 signature checks (the credential and the
    // KB-JWT; a fetched status list adds a third, cached per list) and one SHA-256 per disclosure plus sd_hash.
    let full = measure("SDJWTVCVerifier (presentation -> report)") { verifySDJWTVC() }
    let presentation = try SDJWTPresentation(sdJwtPresentation, limits: SDJWTLimits())
    let issuerJWS = try CompactJWS(presentation.issuerJWT, limits: SDJWTLimits())
    let kbJWS = try CompactJWS(presentation.keyBindingJWT!, limits: SDJWTLimits())
    let x5c = issuerJWS.header[member: "x5c"]!
    guard case .array(let entries) = x5c, let leafText = entries.first?.stringValue,
          let leaf = try? Certificate(derEncoded: Array(Data(base64Encoded: leafText)!)) else { fatalError("x5c") }
    let issuerKey = P256.Signing.PublicKey(leaf.publicKey)!
    let issuerSignature = try P256.Signing.ECDSASignature(rawRepresentation: issuerJWS.signature)
    let holderKey = P256PublicJWK.key(issuerJWS.payload[member: "cnf"]![member: "jwk"]!)!
    let kbSignature = try P256.Signing.ECDSASignature(rawRepresentation: kbJWS.signature)
    let issuerCheck = measure("P-256 ECDSA verify (issuer JWT)") { issuerKey.isValidSignature(issuerSignature, for: issuerJWS.signingInput) ? 1 : 0 }
    let kbCheck = measure("P-256 ECDSA verify (KB-JWT)") { holderKey.isValidSignature(kbSignature, for: kbJWS.signingInput) ? 1 : 0 }
    let hashedParts = presentation.disclosures.map { Array($0.utf8) } + [Array(presentation.keyBindingInput.utf8)]
    let hashes = measure("SHA-256 of \(presentation.disclosures.count) disclosures and sd_hash") {
        hashedParts.reduce(0) { $0 &+ Int(SHA256.hash(data: $1).first { _ in true } ?? 0) }
    }
    let caCertificate = sdJwtTrust.anchors[0].certificate
    let chain = measure("P-256 certificate signature (issuer by CA)") { caCertificate.publicKey.isValidSignature(leaf.signature, for: leaf) ? 1 : 0 }
    let floor = issuerCheck + kbCheck + hashes
    print(String(format: "floor (2 ECDSA + hashes) %.1f µs; full verify %.1f µs; ratio %.2f; ours on top %.1f µs "
                 + "(the certificate signature, %.1f µs, %@)", floor, full, full / floor, full - floor, chain,
                 "is cached per issuer and trust snapshot" as NSString))
    exit(0)
}

if CommandLine.arguments.count > 2, CommandLine.arguments[2] == "crl" {
    // The cost of a CRL check on a cached CRL (TestVectors/crl: a document signer against its IACA's CRL, held by the
    // service's CRLCache after the first fetch), next to one mdoc verification of the demo DeviceResponse.
    struct HeldCRL: CRLFetching {
        let bytes: [UInt8]
        func fetch(_ url: String) async -> Result<[UInt8], CRLFetchFailure> { .success(bytes) }
    }
    let crlFolder = "TestVectors/crl"
    let crlBytes = load("\(crlFolder)/crls/iaca.crl")
    let iacaCertificate = try Certificate(derEncoded: CertificateParsing.derCertificates(from: load("\(crlFolder)/pki/iaca.pem"))[0])
    let signer = try Certificate(derEncoded: CertificateParsing.derCertificates(from: load("\(crlFolder)/pki/ds-good.pem"))[0])
    let crl = try CertificateRevocationList(derEncoded: crlBytes)
    let link = ChainRevocationChecker.Link(certificate: signer, issuer: iacaCertificate)
    let at = Date(timeIntervalSince1970: 1_893_456_000)
    let verification = measure("MDocVerifier.verify (parsed demo response, all checks)") {
        MDocVerifier(trust: trust).verify(opened.deviceResponse, sessionTranscript: opened.transcript.bytes, options: options).verified ? 1 : 0
    }
    let judged = measure("CRL judgement (distribution point, issuer memo, serial lookup)") {
        guard case .uris(let uris) = CRLDistributionPoints.named(by: signer) else { return 0 }
        return CRLJudge.outcome(crl, for: signer, issuer: iacaCertificate, fetchedFrom: uris[0], at: at, issuerProblem: .some(nil)) == .good ? 1 : 0
    }
    let firstJudgement = measure("CRL first judgement for an issuer (signature over the CRL)") {
        CRLJudge.issuerProblem(crl, issuer: iacaCertificate) == nil ? 1 : 0
    }
    let cache = CRLCache(fetcher: HeldCRL(bytes: crlBytes), cacheSeconds: 1e9)
    _ = await ChainRevocationChecker.outcomes([link], source: cache, at: at)
    // Off the main actor, as a verification runs (on the cooperative pool).
    let rounds = 20_000
    let (cached, good) = await Task.detached { () -> (Double, Int) in
        let clock = ContinuousClock()
        let start = clock.now
        var good = 0
        for _ in 0..<rounds where await ChainRevocationChecker.outcomes([link], source: cache, at: at) == [.good] { good += 1 }
        let elapsed = clock.now - start
        return ((Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) / 1e12) / Double(rounds), good)
    }.value
    precondition(good == rounds, "the cached CRL must say good")
    print(String(format: "%-58@ %10.1f µs  %9.0f /s", "CRL check through CRLCache (cached, one actor hop)" as NSString, cached, 1e6 / cached))
    print(String(format: "cached CRL check %.1f µs = %.3f of a verification (%.1f µs); judgement alone %.2f µs; "
                 + "first judgement per issuer and CRL (its signature) %.1f µs, then memoized", cached, cached / verification,
                 verification, judged, firstJudgement))
    exit(0)
}
if CommandLine.arguments.count > 3, CommandLine.arguments[2] == "hostile" {
    // CPU per hostile request body (scripts/ci/hostile-inputs.py generate), each against a fresh trust snapshot so
    // the issuer chain cache never helps: the worst case a sender can force.
    let folder = CommandLine.arguments[3]
    let hostileTrust = try CertificateParsing.derCertificates(from: load("TestVectors/pki/iaca-p256.pem")).map { try TrustAnchor(derBytes: $0) }
    let names = (try FileManager.default.contentsOfDirectory(atPath: folder)).filter { $0.hasSuffix(".json") }.sorted()
    var worst = (name: "", micros: 0.0)
    for name in names {
        let body = try JSONSerialization.jsonObject(with: Data(load("\(folder)/\(name)"))) as! [String: Any]
        let response = Array(Data(base64Encoded: body["deviceResponse"] as! String) ?? Data())
        let transcript = Array(Data(base64Encoded: body["sessionTranscript"] as! String) ?? Data())
        let micros = measure("hostile \(name) (\(response.count) B)") {
            let fresh = TrustSnapshot(anchors: hostileTrust)
            return MDocVerifier(trust: fresh).verify(deviceResponse: response, sessionTranscript: transcript, options: options).verified ? 1 : 0
        }
        if micros > worst.micros { worst = (name, micros) }
    }
    print(String(format: "worst hostile request: %@ %.1f µs of CPU", worst.name as NSString, worst.micros))
    exit(0)
}
if CommandLine.arguments.count > 3, CommandLine.arguments[2] == "iterations" {
    // A fixed number of full verifications and nothing else, for instruction and allocation counters
    // (scripts/budget/cost-per-request.sh runs two counts and takes the difference).
    let count = Int(CommandLine.arguments[3]) ?? 0
    var verified = 0
    for _ in 0..<count {
        if verifier.verify(envelope: envelope, nonce: nonce, merchantId: merchantId, teamId: teamId, trust: trust,
                           options: options).verified { verified += 1 }
    }
    print("verified \(verified) of \(count)")
    exit(verified == count ? 0 : 1)
}
if CommandLine.arguments.count > 2, CommandLine.arguments[2] == "profile-parse" {
    _ = measure("DeviceResponse parse") { (try? DeviceResponse(bytes: responseBytes)) != nil ? 1 : 0 }
    exit(0)
}
if CommandLine.arguments.count > 2, CommandLine.arguments[2] == "profile" {
    // Only the full path, for a profiler.
    _ = measure("AppleIdentityVerifier.verify (envelope -> report)") {
        verifier.verify(envelope: envelope, nonce: nonce, merchantId: merchantId, teamId: teamId, trust: trust, options: options).verified ? 1 : 0
    }
    exit(0)
}

print("verifierd-bench: demo envelope \(envelope.count) B, plaintext \(plaintext.count) B, \(seconds) s per row, one thread\n")
print("— ours —")
let decode = measure("CBOR decode of the plaintext") { (try? CBORDecoder().decode(plaintext)) != nil ? 1 : 0 }
let parse = measure("DeviceResponse parse (model, tag-24 items, MSO)") { (try? DeviceResponse(bytes: responseBytes)) != nil ? 1 : 0 }
let engine = measure("MDocVerifier.verify (parsed response, all 9 checks)") {
    MDocVerifier(trust: trust).verify(opened.deviceResponse, sessionTranscript: opened.transcript.bytes, options: options).verified ? 1 : 0
}
let full = measure("AppleIdentityVerifier.verify (envelope -> report)") {
    verifier.verify(envelope: envelope, nonce: nonce, merchantId: merchantId, teamId: teamId, trust: trust, options: options).verified ? 1 : 0
}

print("\n— the cryptography floor —")
let suite = AppleIdentityVerifier.ciphersuite
let envelopeParsed = try AppleHPKEEnvelope(bytes: envelope)
let hpke = measure("HPKE open (Recipient.init + open)") {
    var recipient = try! HPKE.Recipient(privateKey: key.hpkeKey, ciphersuite: suite, info: Data(opened.transcript.bytes),
                                        encapsulatedKey: Data(envelopeParsed.pkEm))
    return (try? recipient.open(envelopeParsed.data))?.count ?? 0
}
let ds = try Certificate(derEncoded: Array(try opened.deviceResponse.documents[0].issuerSigned.issuerAuth.headers.x5chain()[0]))
let iaca = anchors[0].certificate
let certificateSignature = measure("P-256 certificate signature (DS by IACA)") {
    iaca.publicKey.isValidSignature(ds.signature, for: ds) ? 1 : 0
}
let dsKey = P256.Signing.PublicKey(ds.publicKey)!
let issuerAuth = opened.deviceResponse.documents[0].issuerSigned.issuerAuth
let sigStructure = try issuerAuth.signatureStructure()
let signature = try P256.Signing.ECDSASignature(rawRepresentation: Array(issuerAuth.signature))
let ecdsa = measure("P-256 ECDSA verify (issuerAuth; device signature costs the same)") {
    dsKey.isValidSignature(signature, for: sigStructure) ? 1 : 0
}
let items = opened.deviceResponse.documents[0].issuerSigned.nameSpaces.flatMap(\.items)
let digests = measure("SHA-256 of all \(items.count) IssuerSignedItemBytes") {
    items.reduce(0) { $0 &+ Int(SHA256.hash(data: $1.taggedBytes).first { _ in true } ?? 0) }
}
// The DS certificate's signature is checked once per issuer (IssuerChainCache), so it is not part of a request's floor.
let floor = hpke + 2 * ecdsa + digests
print(String(format: "\nper-request floor (HPKE + 2 ECDSA + digests; the DS certificate signature, %.1f µs, is cached per issuer)",
             certificateSignature))
print(String(format: "floor %.1f µs; full verify %.1f µs; ours on top %.1f µs (%.0f%% of the request)",
             floor, full, full - floor, (full - floor) / full * 100))
_ = (decode, parse, engine, sink)
