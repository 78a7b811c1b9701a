import CertificateRevocation
import CertificationPath
import Crypto
import Encodings
import Foundation
import TrustStore
import X509

/// Verifies a list of trusted entities (ETSI TS 119 602, JSON binding, compact JAdES with x5c) before anything of it
/// is trusted, in this order: the size; the compact JWS and its protected header; the signer's chain to one of the
/// source's signer anchors at the verification time; the signature; the payload, strictly; the signer's names
/// against the scheme operator's; `NextUpdate` (null: the scheme is closed) and the dates; the EU profile of the
/// list's kind. Then each service's certificates, with what they grant.
public struct LoTEVerifier: Sendable {
    public var limits: LoTELimits
    /// Tolerance for `ListIssueDateTime` (and a Pub-EAA `StatusStartingTime`) lying slightly in the future.
    public var clockSkew: TimeInterval

    public init(limits: LoTELimits = .default, clockSkew: TimeInterval = 300) {
        self.limits = limits
        self.clockSkew = clockSkew
    }

    /// Verifies `bytes` (the `.jwt` file body) as the list `kind` of `source`, signed under one of `signerAnchors`,
    /// at `time`; a list past `NextUpdate` is refused (`LOTE_STALE`) unless within `staleGrace` seconds after it.
    public func verify(_ bytes: [UInt8], source: String, kind: LoTEKind, signerAnchors: [Certificate], at time: Date,
                       staleGrace: TimeInterval = 0) throws(LoTEError) -> VerifiedLoTE
    {
        guard bytes.count <= limits.maximumBytes else {
            throw LoTEError(.tooLarge, "\(bytes.count) bytes; at most \(limits.maximumBytes) are accepted")
        }
        // 1. The JWS and its header.
        let jws = try LoTECompactJWS(bytes)
        let header = try LoTEJWSHeader(jws.header, limits: limits)
        let signer = header.certificates[0]
        // 2. The signer, then its signature.
        let signerLinks = try Self.checkSigner(header.certificates, anchors: signerAnchors, at: time)
        if let problem = header.algorithm.problem(signature: jws.signature, over: jws.signingInput, key: signer.publicKey) {
            throw LoTEError(.signatureInvalid, problem)
        }
        // 3. The payload, the operator's names, the dates, the profile.
        let document = try LoTEDocument(payload: jws.payload, limits: limits)
        let scheme = document.scheme
        if let problem = LoTESignerNameBinding.problem(signer: signer, scheme: scheme) {
            throw LoTEError(.signerNameMismatch, problem)
        }
        guard let nextUpdate = scheme.nextUpdate else {
            throw LoTEError(.closed, "NextUpdate is null: the scheme has ceased (TS 119 602 6.3.15) and the list grants nothing")
        }
        if scheme.issued > time.addingTimeInterval(clockSkew) {
            throw LoTEError(.notYetValid, "the list was issued \(RFC3339Timestamp.string(scheme.issued)), after "
                            + RFC3339Timestamp.string(time))
        }
        if time >= nextUpdate.addingTimeInterval(staleGrace) {
            throw LoTEError(.stale, "the list was to be replaced by \(RFC3339Timestamp.string(nextUpdate))"
                            + (staleGrace > 0 ? " (with \(Int(staleGrace)) s of grace)" : "") + "; it is \(RFC3339Timestamp.string(time))")
        }
        let profile = LoTEProfile.of(kind)
        try profile.check(document, nextUpdate: nextUpdate)
        // 4. What the services grant.
        let (grants, skipped) = LoTEGrants.read(document, profile: profile, at: time, clockSkew: clockSkew)
        return VerifiedLoTE(
            source: source, kind: kind, sequenceNumber: scheme.sequenceNumber, issued: scheme.issued, nextUpdate: nextUpdate,
            operatorName: LoTEText.english(scheme.operatorNames), signer: signer.subject.description,
            sha256: SHA256.hash(data: bytes).hexString, grants: grants, skipped: skipped, signerLinks: signerLinks)
    }

    /// The list-signer rules: CA constraints on every issuer, every certificate valid at `time` (the anchor too), and
    /// a key usage (when present) that allows signing: digitalSignature, or nonRepudiation alone as the
    /// Commission's list signer has.
    static func rules(at time: Date) -> [any PathRule] {
        [
            CertificateAuthorityConstraints(keyUsageRequired: false),
            ValidAtTime(time),
            LeafSigningKeyUsage(required: false, nonRepudiationSuffices: true),
        ]
    }

    /// x5c[0] is a pinned anchor itself, or an end-entity certificate with a path to a CA anchor through the other x5c
    /// certificates; every x5c entry is certified by the one after it (an anchor may end x5c, but is trusted only for
    /// being configured).
    /// Returns the path's certificates below the anchor, each with its issuer, for the CRL check.
    @discardableResult
    static func checkSigner(_ chain: [Certificate], anchors: [Certificate], at time: Date) throws(LoTEError)
        -> [ChainRevocationChecker.Link]
    {
        let signer = chain[0]
        let builder = CertificationPathBuilder(anchors: PinnedAnchors(anchors, name: "list-signer anchor"), rules: rules(at: time))
        let path: CertificationPath<Certificate>
        switch builder.build(leaf: signer, others: Array(chain.dropFirst())) {
        case .success(let built): path = built
        case .failure(let problem): throw LoTEError(.signerUntrusted, problem.detail)
        }
        if !path.path.isEmpty, LoTEGrants.isCertificateAuthority(signer) {
            throw LoTEError(.signerUntrusted, "the signer \(signer.subject) is a CA certificate, not a list signer")
        }
        for index in chain.indices.dropFirst() {
            let issuer = chain[index]
            let subject = chain[index - 1]
            guard issuer.subject == subject.issuer, issuer.publicKey.isValidSignature(subject.signature, for: subject) else {
                throw LoTEError(.signerUntrusted, "x5c[\(index)] (\(issuer.subject)) does not certify x5c[\(index - 1)] (\(subject.subject))")
            }
        }
        return ChainRevocationChecker.links(path: path.path, anchor: path.anchor)
    }
}
