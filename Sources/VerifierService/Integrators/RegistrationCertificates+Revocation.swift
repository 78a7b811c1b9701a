import CertificateRevocation
import Foundation
import OpenID4VP

/// CRLs for registration certificates (RFC 5280 §6.3 over the chain of the registrar's provider certificate, below
/// the configured registrar anchor). A certificate whose chain is revoked is never sent again: a wallet that checks
/// it would refuse the request, and the relying party may no longer claim that registration. Under `crl.mode`
/// enforce one whose revocation cannot be determined is not sent either; under warn it is, and the operator hears it
/// once per change (log and `/readyz`). The CRL cache makes a check of a cached CRL a lookup, so every request
/// checks it; a start-up and post-reload pass fetches the CRLs before the first request needs them.
extension RegistrationCertificates {
    /// The code of a request refused because its integrator's registration certificate chain is revoked.
    static let revokedCode = "REGISTRATION_CERTIFICATE_REVOKED"
    /// The code of a request refused under `enforce` because that revocation could not be determined.
    static let undeterminedCode = "REGISTRATION_CERTIFICATE_REVOCATION_UNDETERMINED"

    /// Checks `certificate`'s chain against its CRLs and remembers the verdict; nil when `crl.mode` is off.
    @discardableResult
    func revocationVerdict(of certificate: RegistrationCertificate, integrator: String, now: Date) async -> CertificateRevocationVerdict? {
        guard let crls else { return nil }
        let outcomes = await ChainRevocationChecker.outcomes(certificate.revocationLinks, source: crls, at: now)
        let verdict = CertificateRevocationVerdict.judge(outcomes, policy: revocationPolicy)
        let previous = revocationVerdicts.withLock { verdicts in
            defer { verdicts[integrator] = verdict }
            return verdicts[integrator]
        }
        if previous != verdict { report(verdict, integrator: integrator) }
        return verdict
    }

    /// Refuses a request whose registration certificate may not be sent (see the type's note).
    func requireNotRevoked(_ certificate: RegistrationCertificate, of integrator: String, now: Date) async throws(ServiceProblem) {
        guard case .failed(let code, let detail)? = await revocationVerdict(of: certificate, integrator: integrator, now: now) else { return }
        if code == CertificateRevocationVerdict.revokedCode {
            throw ServiceProblem(.serviceUnavailable, Self.revokedCode,
                                 "this integrator's registration certificate is revoked (\(detail)); the operator must replace it")
        }
        throw ServiceProblem(.serviceUnavailable, Self.undeterminedCode,
                             "the revocation of this integrator's registration certificate cannot be determined (\(code): \(detail)); "
                             + "crl.mode is enforce")
    }

    /// Checks every certificate in force (at start and after a reload), so that the first request finds its CRLs
    /// cached and the operator hears of a revoked one at once.
    func checkRevocationOfAll(now: Date) async {
        guard crls != nil else { return }
        for (integrator, certificate) in all.sorted(by: { $0.key < $1.key }) {
            await revocationVerdict(of: certificate, integrator: integrator, now: now)
        }
    }

    /// Why an integrator's requests are refused (its certificate chains to no anchor in force, or its chain fails
    /// its CRL check) or its certificate's revocation is unknown, for `/readyz`.
    func problems(now: Date) -> [String] {
        let untrusted = untrusted(now: now).sorted(by: { $0.key < $1.key }).map { integrator, problem in
            "the registration certificate of integrator \(integrator) is not usable (\(problem)): its signed requests are refused"
        }
        return untrusted + revocationVerdicts.withLock { $0 }.sorted(by: { $0.key < $1.key }).compactMap { integrator, verdict in
            switch verdict {
            case .failed(let code, let detail):
                "the registration certificate of integrator \(integrator) fails its CRL check (\(code): \(detail)): its signed requests are refused"
            case .warning(let code, let detail):
                "the revocation of the registration certificate of integrator \(integrator) is undetermined (\(code): \(detail))"
            case .passed, .notApplicable: nil
            }
        }
    }

    private func report(_ verdict: CertificateRevocationVerdict, integrator: String) {
        switch verdict {
        case .failed(let code, let detail):
            logger.error("registration certificate fails its CRL check; the integrator's signed requests are refused", metadata: [
                "integrator": "\(integrator)", "code": "\(code)", "detail": "\(detail)"])
        case .warning(let code, let detail):
            logger.warning("registration certificate revocation undetermined; it is still sent (crl.mode warn)", metadata: [
                "integrator": "\(integrator)", "code": "\(code)", "detail": "\(detail)"])
        case .passed(let detail):
            logger.info("registration certificate CRL check passed", metadata: ["integrator": "\(integrator)", "detail": "\(detail)"])
        case .notApplicable(let detail):
            logger.info("registration certificate CRL check not applicable", metadata: ["integrator": "\(integrator)", "detail": "\(detail)"])
        }
    }
}
