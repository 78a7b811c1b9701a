import Foundation
import X509

/// RFC 5280 §6.3.3 for one certificate and one complete base CRL of its issuer, in a fixed order: the CRL's issuer
/// (name and key identifier), the issuer's right to sign CRLs (cRLSign), the signature, the CRL profile, what needs
/// processing verifierd does not do, the CRL's scope, its times; then the listing decides.
///
/// The first part depends only on the CRL and the issuer (``issuerProblem(_:issuer:)``): a cache computes it once
/// per CRL and issuer, so a check against a cached CRL is the second part alone (``outcome(_:for:issuer:fetchedFrom:at:staleGrace:issuerProblem:)``).
public enum CRLJudge {
    /// Why `crl` cannot be used for certificates of `issuer`, or nil: name, key identifier, cRLSign, signature,
    /// profile and unsupported features.
    public static func issuerProblem(_ crl: CertificateRevocationList, issuer: Certificate) -> (CRLProblem, String)? {
        guard crl.issuer == issuer.subject else {
            return (.issuerMismatch, "the CRL's issuer is not \(issuer.subject)")
        }
        if let aki = crl.authorityKeyIdentifier, let ski = (try? issuer.extensions.subjectKeyIdentifier)??.keyIdentifier, aki != Array(ski) {
            return (.issuerMismatch, "the CRL's authority key identifier is not the issuer's subject key identifier")
        }
        if let usage = try? issuer.extensions.keyUsage, !usage.cRLSign {
            return (.issuerNotAuthorized, "the issuer's keyUsage does not allow cRLSign")
        }
        guard let algorithm = crl.signatureAlgorithm else {
            return (.signatureInvalid, "the CRL is signed with \(crl.signatureAlgorithmOID), which is not accepted")
        }
        guard issuer.publicKey.isValidSignature(crl.signature, for: crl.tbsBytes, signatureAlgorithm: algorithm) else {
            return (.signatureInvalid, "the CRL's signature does not verify with the issuer's key")
        }
        if crl.version == 1 && (crl.hasExtensions || crl.entriesHaveExtensions) {
            return (.malformed, "a version 1 CRL carries extensions")
        }
        guard crl.nextUpdate != nil else { return (.malformed, "the CRL has no nextUpdate (RFC 5280 §5.1.2.5)") }
        guard crl.crlNumber != nil, !crl.crlNumberIsCritical else {
            return (.malformed, crl.crlNumber == nil ? "the CRL has no cRLNumber (RFC 5280 §5.2.3)" : "the CRL's cRLNumber is critical (RFC 5280 §5.2.3)")
        }
        if !crl.isDelta, crl.entries.values.contains(where: { $0.reason == .removeFromCRL }) {
            return (.malformed, "a base CRL lists removeFromCRL (RFC 5280 §5.3.1: delta CRLs only)")
        }
        if let oid = crl.unknownCriticalExtensions.first { return (.unsupported, "the CRL has critical extension \(oid), which is not understood") }
        if crl.isDelta { return (.unsupported, "a delta CRL (deltaCRLIndicator) is never used alone") }
        if let point = crl.issuingDistributionPoint {
            if point.indirectCRL { return (.unsupported, "an indirect CRL") }
            if point.onlySomeReasons { return (.unsupported, "a CRL partitioned by reasons (onlySomeReasons)") }
        }
        for entry in crl.entries.values {
            if entry.namesCertificateIssuer { return (.unsupported, "an entry names another certificate issuer (indirect CRL)") }
            if let oid = entry.unknownCriticalExtensions.first { return (.unsupported, "an entry has critical extension \(oid), which is not understood") }
        }
        return nil
    }

    /// The outcome for `certificate`, issued by `issuer`, from `crl` fetched at `url`, at `time`. A CRL past its
    /// nextUpdate counts for `staleGrace` more (the caller allows it only when a newer one could not be fetched).
    /// `issuerProblem` is ``issuerProblem(_:issuer:)``'s answer, computed here when not given.
    public static func outcome(_ crl: CertificateRevocationList, for certificate: Certificate, issuer: Certificate, fetchedFrom url: String,
                               at time: Date, staleGrace: TimeInterval = 0,
                               issuerProblem known: (CRLProblem, String)?? = nil) -> CertificateRevocationOutcome {
        if let (problem, detail) = known ?? issuerProblem(crl, issuer: issuer) { return .undetermined(problem, detail: detail) }
        guard certificate.issuer == crl.issuer else { return .undetermined(.issuerMismatch, detail: "the CRL is not of the certificate's issuer") }
        if let point = crl.issuingDistributionPoint {
            let isCA = (try? certificate.extensions.basicConstraints).flatMap { $0 }.map { if case .isCertificateAuthority = $0 { true } else { false } } ?? false
            if point.onlyContainsAttributeCerts { return .undetermined(.scopeMismatch, detail: "the CRL covers attribute certificates only") }
            if point.onlyContainsUserCerts && isCA { return .undetermined(.scopeMismatch, detail: "the CRL covers end-entity certificates only") }
            if point.onlyContainsCACerts && !isCA { return .undetermined(.scopeMismatch, detail: "the CRL covers CA certificates only") }
            if point.namesDistributionPoint && !point.uris.contains(url) {
                return .undetermined(.scopeMismatch, detail: "the CRL's issuingDistributionPoint does not name the distribution point it was fetched from")
            }
        }
        guard crl.thisUpdate <= time else { return .undetermined(.notYetValid, detail: "the CRL's thisUpdate is after the verification time") }
        if let next = crl.nextUpdate, time > next.addingTimeInterval(staleGrace) {
            return .undetermined(.expired, detail: "the CRL's nextUpdate \(ISO8601DateFormatter().string(from: next)) has passed")
        }
        let serial = certificate.serialNumber.bytes
        if let entry = crl.entries[serial[...]] ?? crl.entries[ArraySlice(serial)] {
            return .revoked(reason: entry.reason ?? .unspecified, date: entry.revocationDate, subject: certificate.subject.description)
        }
        return .good
    }
}
