import Foundation

/// A chain's CRL outcomes as one check's result, the same for every credential format: revoked fails (any mode),
/// undetermined fails under `enforce` and warns under `warn`, good passes; a chain none of whose certificates
/// publishes a CRL has nothing to check.
public enum CertificateRevocationVerdict: Sendable, Equatable {
    case passed(String)
    case failed(code: String, detail: String)
    case warning(code: String, detail: String)
    case notApplicable(String)

    /// The code of a revoked certificate.
    public static let revokedCode = "CERTIFICATE_REVOKED"
    /// Every code the check answers with.
    public static let codes: [String] = [revokedCode] + CRLProblem.allCases.map(\.rawValue)

    public static func judge(_ outcomes: [CertificateRevocationOutcome], policy: CertificateRevocationPolicy) -> CertificateRevocationVerdict {
        switch CertificateRevocationOutcome.combined(outcomes) {
        case .revoked(let reason, let date, let subject):
            return .failed(code: revokedCode, detail: "\(subject) is revoked (\(reason.name), \(ISO8601DateFormatter().string(from: date)))")
        case .undetermined(let problem, let detail):
            return policy.mode == .enforce ? .failed(code: problem.rawValue, detail: "undetermined: \(detail)")
                : .warning(code: problem.rawValue, detail: "undetermined: \(detail)")
        case .good:
            let checked = outcomes.filter { $0 == .good }.count
            return .passed("\(checked) of \(outcomes.count) certificate(s) below the anchor checked against their issuer's CRL; none revoked")
        case .notPublished:
            return .notApplicable("no certificate below the anchor names a CRL distribution point")
        }
    }
}
