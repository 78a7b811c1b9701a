import Foundation
import MDoc

/// `sdjwt.status` from what the JWT status list said (Token Status List 8.3): the list signer must chain to the
/// same anchor as the credential, or for a listed issuer be a key of its metadata (11.3); 0 is valid, 1 revoked, 2 suspended, anything else or any failure unknown,
/// which is never "revoked". The policy decides whether revoked, suspended and unknown fail or warn.
enum SDJWTVCStatusJudgement {
    static func judge(_ evidence: StatusEvidence, reference: SDJWTVCStatusReference?, anchorSHA256: String?,
                      metadataIssuer: String?, policy: StatusPolicy) -> SDJWTVCCheckResult {
        let id = SDJWTVCCheckID.status
        let host = reference.flatMap { URLComponents(string: $0.uri)?.host } ?? "(invalid URI)"
        let what = "status list \(host) index"
        let source = evidence.source.isEmpty ? "" : ", \(evidence.source)"
        let finding: (code: VerificationErrorCode?, detail: String)
        switch (evidence.finding, evidence.signerTrust) {
        case (.unknown(let reason), _):
            finding = (.statusUnknown, "\(what): unknown (\(reason))")
        case (_, .anchor(let sha256)) where sha256 != anchorSHA256 || anchorSHA256 == nil:
            finding = (.statusUnknown, "\(what): unknown (the list signer does not chain to the credential's issuer anchor)")
        case (_, .issuerKey(let issuer)) where issuer != metadataIssuer || metadataIssuer == nil:
            finding = (.statusUnknown, "\(what): unknown (the list is not signed by a key of the credential's issuer metadata)")
        case (_, .none), (_, .msoCertificate):
            finding = (.statusUnknown, "\(what): unknown (the list signer does not chain to the credential's issuer anchor)")
        case (.status(0), _): finding = (nil, "\(what): valid\(source)")
        case (.status(1), _): finding = (.statusRevoked, "\(what): revoked (INVALID)\(source)")
        case (.status(2), _): finding = (.statusSuspended, "\(what): suspended\(source)")
        case (.status(let value), _): finding = (.statusUnknown, "\(what): unknown (status value \(value))\(source)")
        case (.identifierListed, _): finding = (.statusUnknown, "\(what): unknown (not a status list)")
        }
        guard let code = finding.code else { return .passed(id, finding.detail) }
        if policy.mode == .warn || (code == .statusUnknown && policy.unknown == .warn) {
            return .warning(id, FailureCode(code), finding.detail)
        }
        return .failed(id, FailureCode(code), finding.detail)
    }
}
