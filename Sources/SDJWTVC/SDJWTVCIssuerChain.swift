import CertificateRevocation
import CertificationPath
import Crypto
import Foundation
import MDoc
import Synchronization
import TrustStore
import X509

/// The issuer's certificates from the protected `x5c` (standard base64 DER, leaf first) and the path from them to an
/// anchor of the SD-JWT VC issuer trust set, built once per `x5c` and trust snapshot (``SDJWTVCIssuerChainCache``):
/// only what does not depend on the time is kept, and validity periods are judged on every verification.
struct SDJWTVCIssuerChain: Sendable {
    let leaf: Certificate
    /// The leaf's and the anchor's subjects as text, made once (a DistinguishedName prints slowly).
    let leafSubject: String
    let anchorSubject: String?
    let leafKey: P256.Signing.PublicKey?
    /// Whether a byte-equal copy of a trusted anchor was dropped from `x5c`.
    let droppedAnchorCopy: Bool
    /// The AuthorityKeyIdentifier keyIdentifiers of every certificate `x5c` carries, in its order (what DCQL
    /// `trusted_authorities` of type `aki` are matched against).
    let presentedAuthorityKeyIdentifiers: [[UInt8]]
    /// The path (leaf first, anchor excluded) and its anchor, or why there is none; every rule but the time checked.
    let path: Result<(certificates: [Certificate], anchor: TrustAnchor), PathProblem>

    /// The issuer rule set, but for the time: an EC key on every certificate (P-256 on the leaf, the only curve ES256
    /// uses), at most two intermediate CAs with RFC 5280 constraints and keyCertSign, a leaf that signs and is no CA.
    static let timelessRules: [any PathRule] = [
        AcceptedKeys("an EC P-256 key") { P256.Signing.PublicKey($0.publicKey) != nil },
        MaximumIntermediateCAs(2, profile: "the SD-JWT VC issuer profile"),
        CertificateAuthorityConstraints(keyUsageRequired: true),
        LeafSigningKeyUsage(required: true),
        LeafIsNotCA(),
    ]

    /// Reads `x5c` and builds the path; a failure result when `x5c` is unreadable.
    static func make(_ entries: [String], trust: TrustSnapshot, maximumCertificates: Int) -> Result<SDJWTVCIssuerChain, SDJWTVCCheckResult> {
        let id = SDJWTVCCheckID.issuerSignature
        guard !entries.isEmpty, entries.count <= maximumCertificates else {
            return .failure(.failed(id, FailureCode(.issuerCertificateInvalid), "x5c holds \(entries.count) certificates; 1 to \(maximumCertificates)"))
        }
        let certificates: [(certificate: Certificate, der: [UInt8])]
        switch X5CHeader.certificates(entries) {
        case .success(let read): certificates = read
        case .failure(let problem):
            return .failure(.failed(id, FailureCode(.issuerCertificateInvalid), "x5c[\(problem.index)] is not a base64 DER X.509 certificate"))
        }
        let anchors = Set(trust.anchors.map(\.derBytes))
        let leaf = certificates[0].0
        var others: [Certificate] = []
        var dropped = false
        for (certificate, der) in certificates.dropFirst() {
            if anchors.contains(der) { dropped = true } else { others.append(certificate) }
        }
        let builder = CertificationPathBuilder(anchors: IACAAnchors(trust, name: "trusted SD-JWT VC issuer anchor"), rules: timelessRules)
        let path = builder.build(leaf: leaf, others: others).map { (certificates: $0.path, anchor: $0.anchor) }
        return .success(SDJWTVCIssuerChain(leaf: leaf, leafSubject: leaf.subject.description,
                                           anchorSubject: (try? path.get())?.anchor.subject,
                                           leafKey: P256.Signing.PublicKey(leaf.publicKey), droppedAnchorCopy: dropped,
                                           presentedAuthorityKeyIdentifiers: certificates.compactMap(\.0.authorityKeyIdentifierBytes),
                                           path: path))
    }

    /// The certificates to check against CRLs, each with its issuer; nil without a path.
    var revocationLinks: [ChainRevocationChecker.Link]? {
        guard case .success(let found) = path else { return nil }
        return ChainRevocationChecker.links(path: found.certificates, anchor: found.anchor.certificate)
    }

    /// `sdjwt.issuerCertificateChain` failed for `problem`, with the code of its kind.
    static func failed(_ problem: PathProblem) -> SDJWTVCCheckResult {
        let code: VerificationErrorCode
        switch problem.kind {
        case .untrusted: code = .issuerCertificateUntrusted
        case .expired: code = .issuerCertificateExpired
        case .invalid, .notAuthorized: code = .issuerCertificateInvalid
        }
        return .failed(.issuerCertificateChain, FailureCode(code), problem.detail)
    }

    /// `sdjwt.issuerCertificateChain` at `now`, and the anchor when the path holds.
    func check(vct: String?, now: Date) -> (SDJWTVCCheckResult, TrustAnchor?) {
        let id = SDJWTVCCheckID.issuerCertificateChain
        let found: (certificates: [Certificate], anchor: TrustAnchor)
        let problem: PathProblem?
        switch path {
        case .failure(let failure):
            return (Self.failed(failure), nil)
        case .success(let built):
            found = built
            problem = ValidAtTime(now, includingAnchor: true).problem(
                with: PathCandidate(path: built.certificates, anchor: built.anchor.certificate, leaf: leaf), at: .verified)
        }
        if let problem { return (Self.failed(problem), nil) }
        let anchor = found.anchor
        if let vct, !anchor.metadata.authorizes(docType: vct) {
            return (.failed(id, FailureCode(.issuerNotAuthorizedForVCT),
                            "the anchor \(anchor.subject) is scoped to other vct values, not \"\(vct.prefix(128))\""), anchor)
        }
        let detail = "\(leafSubject) chains to \(anchorSubject ?? anchor.subject)"
        if droppedAnchorCopy {
            return (.warning(id, FailureCode(.x5cContainsAnchor),
                             "\(detail); x5c carried a copy of the trusted anchor, which HAIP says issuers must not send (dropped)"), anchor)
        }
        return (.passed(id, detail), anchor)
    }
}

/// Remembers the chain built for an `x5c` against a trust snapshot: decoding and parsing the certificates and checking
/// their signatures is the same work for every credential of an issuer. Least recently used entries go first, so a
/// stream of unique chains cannot flush the issuers in daily use.
final class SDJWTVCIssuerChainCache: Sendable {
    struct Key: Hashable {
        let x5cDigest: [UInt8]
        let snapshot: Int
    }

    private let entries: Mutex<LRUCache<Key, Result<SDJWTVCIssuerChain, SDJWTVCCheckResult>>>

    init(capacity: Int = 512) {
        entries = Mutex(LRUCache(capacity: capacity))
    }

    /// The process-wide cache.
    static let shared = SDJWTVCIssuerChainCache()

    func chain(_ entries: [String], trust: TrustSnapshot, maximumCertificates: Int) -> Result<SDJWTVCIssuerChain, SDJWTVCCheckResult> {
        var hasher = SHA256()
        for entry in entries {
            var length = UInt64(entry.utf8.count).bigEndian
            withUnsafeBytes(of: &length) { hasher.update(bufferPointer: $0) }
            var text = entry
            text.withUTF8 { hasher.update(bufferPointer: UnsafeRawBufferPointer($0)) }
        }
        let key = Key(x5cDigest: Array(hasher.finalize()), snapshot: trust.identity)
        if let cached = self.entries.withLock({ $0.value(forKey: key) }) { return cached }
        let made = SDJWTVCIssuerChain.make(entries, trust: trust, maximumCertificates: maximumCertificates)
        self.entries.withLock { $0.insert(made, forKey: key) }
        return made
    }
}
