import CertificateRevocation
import Foundation
import Logging
import OpenID4VP
import Synchronization
import TrustManagement
import X509

/// Each integrator's registration certificate in force (`registration`), read and checked at start and again on
/// SIGHUP (a reload that finds any file unusable keeps the certificates in force), and what a request of that
/// integrator may ask for: no more than its certificate registers (EU wallets refuse a request that asks for more),
/// and only while the chain of its provider's certificate is not revoked (`crl.mode`, see
/// `RegistrationCertificates+Revocation.swift`).
///
/// A certificate chains to a configured registrar anchor or to a provider a WRPRC providers list in force vouches
/// for (`trust.loteSources` of kind `wrprc`). Those lists come and go while the service runs: when they change, every
/// certificate is checked again, and one that no longer chains (or does not yet, before its list first arrives) is
/// not sent: its integrator's signed requests are refused until it does.
final class RegistrationCertificates: Sendable {
    let section: ServiceConfiguration.Registration
    /// The configured registrar anchors (`registration.registrarAnchors`).
    let anchors: [Certificate]
    /// The providers the WRPRC lists in force vouch for; nil without such a list.
    let providerLists: ListedProviderAnchors?
    private let state: Mutex<State>
    /// Where the CRLs of the registrars' chains come from; nil when `crl.mode` is off.
    let crls: (any CRLSource)?
    let revocationPolicy: CertificateRevocationPolicy
    let logger: Logger
    /// The service's clock, for a check that no request times (``all``).
    let clock: @Sendable () -> Date
    /// The last revocation verdict of each integrator's certificate in force (cleared when the certificates are
    /// checked again).
    let revocationVerdicts = Mutex<[String: CertificateRevocationVerdict]>([:])

    /// The files' contents, what they gave, and the version of the provider lists they were checked under.
    struct State: Sendable {
        var texts: [String: String]
        var usable: [String: RegistrationCertificate]
        /// Integrators whose certificate does not chain to any anchor in force, with the reason.
        var untrusted: [String: RegistrationCertificate.Problem]
        var providerVersion: Int
    }

    init(_ section: ServiceConfiguration.Registration, now: Date, providerLists: ListedProviderAnchors? = nil,
         crls: (any CRLSource)? = nil, revocationPolicy: CertificateRevocationPolicy = CertificateRevocationPolicy(mode: .off),
         logger: Logger = Logger(label: "verifierd.registration"), clock: @escaping @Sendable () -> Date = Date.init)
        throws(ConfigurationError)
    {
        self.section = section
        self.clock = clock
        self.providerLists = providerLists
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
        state = Mutex(try Self.read(section, anchors: anchors, providerLists: providerLists, now: now))
    }

    /// Reads and checks every configured file. With WRPRC providers lists, a certificate whose only fault is that it
    /// chains to no anchor in force yet is kept, untrusted, for the lists to vouch for; any other fault is the
    /// file's key's error.
    static func read(_ section: ServiceConfiguration.Registration, anchors: [Certificate], providerLists: ListedProviderAnchors?,
                     now: Date) throws(ConfigurationError) -> State
    {
        let version = providerLists?.version ?? 0
        var texts: [String: String] = [:]
        for (integrator, file) in section.certificates {
            texts[integrator] = try ConfiguredFile.text(file, key: "registration.certificates.\(integrator)")
        }
        let checked = check(texts, anchors: anchors + (providerLists?.certificates ?? []), now: now)
        for (integrator, untrusted) in checked.untrusted.sorted(by: { $0.key < $1.key }) {
            // With lists, a certificate no anchor in force vouches for yet is kept if nothing else is wrong with it.
            let problem = providerLists != nil && untrusted.kind == .untrustedSigner
                ? texts[integrator].flatMap { RegistrationCertificate.problemApartFromTrust(compact: $0, at: now) } : untrusted
            guard let problem else { continue }
            let path = section.certificates[integrator]?.path ?? integrator
            throw ConfigurationError(key: "registration.certificates.\(integrator)", "\(path) is not a usable registration certificate (\(problem))")
        }
        return State(texts: texts, usable: checked.usable, untrusted: checked.untrusted, providerVersion: version)
    }

    /// Each text checked against `anchors` at `now`.
    static func check(_ texts: [String: String], anchors: [Certificate], now: Date)
        -> (usable: [String: RegistrationCertificate], untrusted: [String: RegistrationCertificate.Problem])
    {
        var usable: [String: RegistrationCertificate] = [:]
        var untrusted: [String: RegistrationCertificate.Problem] = [:]
        for (integrator, text) in texts {
            do throws(RegistrationCertificate.Problem) {
                usable[integrator] = try RegistrationCertificate(compact: text, registrars: anchors, at: now)
            } catch {
                untrusted[integrator] = error
            }
        }
        return (usable, untrusted)
    }

    /// Re-reads every configured file; on success the new certificates are in force.
    func reload(now: Date) throws(ConfigurationError) {
        let read = try Self.read(section, anchors: anchors, providerLists: providerLists, now: now)
        state.withLock { $0 = read }
        revocationVerdicts.withLock { $0 = [:] }
    }

    /// The state, checked again first when the provider lists changed since.
    private func current(now: Date) -> State {
        guard let providerLists else { return state.withLock { $0 } }
        let version = providerLists.version
        if let unchanged = state.withLock({ $0.providerVersion == version ? $0 : nil }) { return unchanged }
        let texts = state.withLock { $0.texts }
        let checked = Self.check(texts, anchors: anchors + providerLists.certificates, now: now)
        let updated = State(texts: texts, usable: checked.usable, untrusted: checked.untrusted, providerVersion: version)
        // A reload that came meanwhile (other files) wins: its state was checked under lists at least as recent.
        let swapped = state.withLock { current in
            guard current.texts == texts else { return false }
            current = updated
            return true
        }
        guard swapped else { return state.withLock { $0 } }
        revocationVerdicts.withLock { $0 = [:] }
        logger.notice("registration certificates checked again: the WRPRC providers lists changed", metadata: [
            "usable": .array(updated.usable.keys.sorted().map { .string($0) }),
            "untrusted": .array(updated.untrusted.keys.sorted().map { .string($0) })])
        return updated
    }

    /// Every usable certificate in force, by integrator.
    var all: [String: RegistrationCertificate] { current(now: clock()).usable }

    /// Integrators whose certificate is not sent because it chains to no anchor in force, with the reason.
    func untrusted(now: Date) -> [String: RegistrationCertificate.Problem] { current(now: now).untrusted }

    /// The certificate a request of `integrator` carries, once its query is checked against it: nil for an
    /// integrator without one; 400 `CLAIM_NOT_REGISTERED` for a query that asks for more than it registers; 503
    /// `REGISTRATION_CERTIFICATE_UNTRUSTED` while it chains to no registrar anchor or listed provider in force, 503
    /// `REGISTRATION_CERTIFICATE_EXPIRED` once it has expired, 503 `REGISTRATION_CERTIFICATE_REVOKED` once its
    /// provider's chain is revoked, and under `crl.mode` enforce 503 `REGISTRATION_CERTIFICATE_REVOCATION_UNDETERMINED`
    /// while that cannot be known (a wallet would refuse the request).
    func certificate(for integrator: Integrator, query: DCQLQuery, now: Date) async throws(ServiceProblem) -> RegistrationCertificate? {
        let state = current(now: now)
        if let problem = state.untrusted[integrator.name] {
            throw ServiceProblem(.serviceUnavailable, "REGISTRATION_CERTIFICATE_UNTRUSTED",
                                 "this integrator's registration certificate is not usable (\(problem)): its provider is neither a "
                                 + "registrar anchor nor on a WRPRC providers list in force")
        }
        guard let certificate = state.usable[integrator.name] else { return nil }
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
