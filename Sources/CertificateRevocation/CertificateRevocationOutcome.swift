import Foundation

/// What the CRLs say about one certificate (or, combined, about a chain).
public enum CertificateRevocationOutcome: Sendable, Equatable {
    /// A current CRL of its issuer does not list it.
    case good
    /// A current CRL of its issuer lists it (RFC 5280 §6.3.3 (i): listed is revoked, whatever the date given).
    case revoked(reason: CRLReason, date: Date, subject: String)
    /// No CRL could decide it.
    case undetermined(CRLProblem, detail: String)
    /// The certificate names no distribution point verifierd can fetch: nothing to check.
    case notPublished(subject: String)

    /// A chain's outcome from its certificates' (leaf first): any revoked decides; else the first undetermined; else
    /// good when any certificate was checked, not published when none could be.
    public static func combined(_ outcomes: [CertificateRevocationOutcome]) -> CertificateRevocationOutcome {
        if let revoked = outcomes.first(where: { if case .revoked = $0 { return true } else { return false } }) { return revoked }
        if let undetermined = outcomes.first(where: { if case .undetermined = $0 { return true } else { return false } }) { return undetermined }
        if outcomes.contains(.good) { return .good }
        return outcomes.first ?? .good
    }
}
