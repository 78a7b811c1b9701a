import CertificationPath
import Crypto
import Foundation
import MDoc
import TrustStore
import X509

/// The issuer's certificates from the protected `x5c` (standard base64 DER, leaf first) and the path from them to an
/// anchor of the SD-JWT VC issuer trust set.
struct SDJWTVCIssuerChain {
    let leaf: Certificate
    let leafKey: P256.Signing.PublicKey?
    let others: [Certificate]
    /// Whether a byte-equal copy of a trusted anchor was dropped from `x5c`.
    let droppedAnchorCopy: Bool

    /// The issuer rule set: an EC key on every certificate (P-256 on the leaf, the only curve ES256 uses), at most two
    /// intermediate CAs with RFC 5280 constraints and keyCertSign, a leaf that signs and is no CA, everything valid
    /// at the verification time, the anchor included.
    static func rules(now: Date) -> [any PathRule] {
        [
            AcceptedKeys("an EC P-256 key") { P256.Signing.PublicKey($0.publicKey) != nil },
            MaximumIntermediateCAs(2, profile: "the SD-JWT VC issuer profile"),
            CertificateAuthorityConstraints(keyUsageRequired: true),
            LeafSigningKeyUsage(required: true),
            LeafIsNotCA(),
            ValidAtTime(now, includingAnchor: true),
        ]
    }

    /// Reads `x5c`; nil with a reason when it is absent or unreadable.
    static func read(_ entries: [String], trust: TrustSnapshot, maximumCertificates: Int) -> Result<SDJWTVCIssuerChain, SDJWTVCCheckResult> {
        let id = SDJWTVCCheckID.issuerSignature
        guard !entries.isEmpty, entries.count <= maximumCertificates else {
            return .failure(.failed(id, FailureCode(.issuerCertificateInvalid), "x5c holds \(entries.count) certificates; 1 to \(maximumCertificates)"))
        }
        var certificates: [(Certificate, [UInt8])] = []
        for (index, entry) in entries.enumerated() {
            guard entry.utf8.count <= 22_000, let der = Data(base64Encoded: entry).map(Array.init),
                  let certificate = try? Certificate(derEncoded: der)
            else {
                return .failure(.failed(id, FailureCode(.issuerCertificateInvalid), "x5c[\(index)] is not a base64 DER X.509 certificate"))
            }
            certificates.append((certificate, der))
        }
        let anchors = Set(trust.anchors.map(\.derBytes))
        let leaf = certificates[0].0
        var others: [Certificate] = []
        var dropped = false
        for (certificate, der) in certificates.dropFirst() {
            if anchors.contains(der) { dropped = true } else { others.append(certificate) }
        }
        return .success(SDJWTVCIssuerChain(leaf: leaf, leafKey: P256.Signing.PublicKey(leaf.publicKey), others: others,
                                           droppedAnchorCopy: dropped))
    }

    /// `sdjwt.issuerCertificateChain`, and the anchor when the path holds.
    func check(trust: TrustSnapshot, vct: String?, now: Date) -> (SDJWTVCCheckResult, TrustAnchor?) {
        let id = SDJWTVCCheckID.issuerCertificateChain
        let builder = CertificationPathBuilder(anchors: IACAAnchors(trust, name: "trusted SD-JWT VC issuer anchor"), rules: Self.rules(now: now))
        switch builder.build(leaf: leaf, others: others) {
        case .failure(let problem):
            let code: VerificationErrorCode
            switch problem.kind {
            case .untrusted: code = .issuerCertificateUntrusted
            case .expired: code = .issuerCertificateExpired
            case .invalid, .notAuthorized: code = .issuerCertificateInvalid
            }
            return (.failed(id, FailureCode(code), problem.detail), nil)
        case .success(let path):
            let anchor = path.anchor
            if let vct, !anchor.metadata.authorizes(docType: vct) {
                return (.failed(id, FailureCode(.issuerNotAuthorizedForVCT),
                                "the anchor \(anchor.subject) is scoped to other vct values, not \"\(vct.prefix(128))\""), anchor)
            }
            let detail = "\(leaf.subject) chains to \(anchor.subject)"
            if droppedAnchorCopy {
                return (.warning(id, FailureCode(.x5cContainsAnchor),
                                 "\(detail); x5c carried a copy of the trusted anchor, which HAIP says issuers must not send (dropped)"), anchor)
            }
            return (.passed(id, detail), anchor)
        }
    }
}
