import CertificateRevocation
import Foundation
import Logging
import OpenID4VP
import Synchronization
import X509

/// Each integrator's registration certificate in force (`registration`), read and checked at start and again on
/// SIGHUP (a reload that finds any file unusable keeps the certificates in force), and what a request of that
/// integrator may ask for: no more than its certificate registers (EU wallets refuse a request that asks for more),
/// and only while the chain of its provider's certificate is not revoked (`crl.mode`, see
/// `RegistrationCertificates+Revocation.swift`).
final class RegistrationCertificates: Sendable {
    let section: ServiceConfiguration.Registration
    let anchors: [Certificate]
    private let inForce: Mutex<[String: RegistrationCertificate]>
    /// Where the CRLs of the registrars' chains come from; nil when `crl.mode` is off.
    let crls: (any CRLSource)?
    let revocationPolicy: CertificateRevocationPolicy
    let logger: Logger
    /// The last revocation verdict of each integrator's certificate in force (cleared by a reload).
    let revocationVerdicts = Mutex<[String: CertificateRevocationVerdict]>([:])

    init(_ section: ServiceConfiguration.Registration, now: Date, crls: (any CRLSource)? = nil,
         revocationPolicy: CertificateRevocationPolicy = CertificateRevocationPolicy(mode: .off),
         logger: Logger = Logger(label: "verifierd.registration")) throws(ConfigurationError) {
        self.section = section
        self.crls = revocationPolicy.mode == .off ? nil : crls
        self.revocationPolicy = revocationPolicy
        self.logger = logger
        var anchors: [Certificate] = []
        for (index, file) in section.registrarAnchors.enumerated() {
            let key = "registration.registrarAnchors[\(index)]"
            let text = try ConfiguredFile.text(file, key: key)
            guard let certificate = try? Certificate(pemEncoded: text) else {
                throw ConfigurationError(key: key, "\(file.path) does not hold a PEM certificate")
            }
            anchors.append(certificate)
        }
        self.anchors = anchors
        inForce = Mutex(try Self.read(section, anchors: anchors, now: now))
    }

    /// Reads and checks every configured certificate.
    static func read(_ section: ServiceConfiguration.Registration, anchors: [Certificate], now: Date) throws(ConfigurationError)
        -> [String: RegistrationCertificate]
    {
        var certificates: [String: RegistrationCertificate] = [:]
        for (integrator, file) in section.certificates {
            let key = "registration.certificates.\(integrator)"
            let text = try ConfiguredFile.text(file, key: key)
            do throws(RegistrationCertificate.Problem) {
                certificates[integrator] = try RegistrationCertificate(compact: text, registrars: anchors, at: now)
            } catch {
                throw ConfigurationError(key: key, "\(file.path) is not a usable registration certificate (\(error))")
            }
        }
        return certificates
    }

    /// Re-reads every configured file; on success the new certificates are in force.
    func reload(now: Date) throws(ConfigurationError) {
        let certificates = try Self.read(section, anchors: anchors, now: now)
        inForce.withLock { $0 = certificates }
        revocationVerdicts.withLock { $0 = [:] }
    }

    /// Every certificate in force, by integrator.
    var all: [String: RegistrationCertificate] { inForce.withLock { $0 } }

    /// The certificate a request of `integrator` carries, once its query is checked against it: nil for an
    /// integrator without one; 400 `CLAIM_NOT_REGISTERED` for a query that asks for more than it registers; 503
    /// `REGISTRATION_CERTIFICATE_EXPIRED` once it has expired, 503 `REGISTRATION_CERTIFICATE_REVOKED` once its
    /// provider's chain is revoked, and under `crl.mode` enforce 503 `REGISTRATION_CERTIFICATE_REVOCATION_UNDETERMINED`
    /// while that cannot be known (a wallet would refuse the request).
    func certificate(for integrator: Integrator, query: DCQLQuery, now: Date) async throws(ServiceProblem) -> RegistrationCertificate? {
        guard let certificate = inForce.withLock({ $0[integrator.name] }) else { return nil }
        if let expires = certificate.expiresAt, expires <= now {
            throw ServiceProblem(.serviceUnavailable, "REGISTRATION_CERTIFICATE_EXPIRED",
                                 "this integrator's registration certificate expired at \(expires); the operator must renew it")
        }
        if let problem = certificate.unregistered(in: query) {
            throw ServiceProblem(.badRequest, "CLAIM_NOT_REGISTERED", problem)
        }
        try await requireNotRevoked(certificate, of: integrator.name, now: now)
        return certificate
    }
}
