import Foundation
import X509

/// RFC 5280 §6.3 for a whole certification path: every certificate below the trust anchor is checked against its
/// issuer's CRL (the anchor never is: it is trusted by configuration), concurrently. A revoked intermediate revokes
/// what it issued, so checking only the leaf is never enough.
public enum ChainRevocationChecker {
    /// One certificate to check and the certificate that issued it.
    public struct Link: Sendable {
        public let certificate: Certificate
        public let issuer: Certificate

        public init(certificate: Certificate, issuer: Certificate) {
            self.certificate = certificate
            self.issuer = issuer
        }
    }

    /// The links of a path, leaf first: `path` (leaf, then intermediates, issuing order) ending in `anchor`.
    public static func links(path: [Certificate], anchor: Certificate) -> [Link] {
        path.enumerated().map { index, certificate in
            Link(certificate: certificate, issuer: index + 1 < path.count ? path[index + 1] : anchor)
        }
    }

    /// Each link's outcome, in order.
    public static func outcomes(_ links: [Link], source: any CRLSource, at time: Date) async -> [CertificateRevocationOutcome] {
        // The usual chain has one certificate below its anchor: no child task for it.
        if links.count == 1 { return [await outcome(links[0], source: source, at: time)] }
        return await withTaskGroup(of: (Int, CertificateRevocationOutcome).self) { group in
            for (index, link) in links.enumerated() {
                group.addTask { (index, await outcome(link, source: source, at: time)) }
            }
            var outcomes = Array(repeating: CertificateRevocationOutcome.good, count: links.count)
            for await (index, outcome) in group { outcomes[index] = outcome }
            return outcomes
        }
    }

    /// One certificate: each distribution point it names in turn, until one decides (good or revoked); otherwise
    /// the first point's reason.
    public static func outcome(_ link: Link, source: any CRLSource, at time: Date) async -> CertificateRevocationOutcome {
        let subject = link.certificate.subject.description
        let uris: [String]
        switch CRLDistributionPoints.named(by: link.certificate) {
        case .none: return .notPublished(subject: subject)
        case .unusable(let reason): return .undetermined(.unsupported, detail: "\(subject): \(reason)")
        case .uris(let found): uris = found
        }
        var first: CertificateRevocationOutcome?
        for uri in uris {
            let outcome: CertificateRevocationOutcome
            switch await source.crl(at: uri, issuer: link.issuer, now: time) {
            case .failed(let problem, let detail):
                outcome = .undetermined(problem, detail: "\(subject): \(detail)")
            case .crl(let crl, let issuerProblem, let grace):
                switch CRLJudge.outcome(crl, for: link.certificate, issuer: link.issuer, fetchedFrom: uri, at: time, staleGrace: grace,
                                        issuerProblem: issuerProblem) {
                case .undetermined(let problem, let detail): outcome = .undetermined(problem, detail: "\(subject): \(detail)")
                case let decided: outcome = decided
                }
            }
            if case .undetermined = outcome {
                first = first ?? outcome
                continue
            }
            return outcome
        }
        return first ?? .notPublished(subject: subject)
    }
}
