import DigitalCredentials
import OpenID4VP
import Proximity
import SessionStore
import WebPresentment

/// How the session capacity (`web.maxSessions` sessions, `web.maxSessionBytes` bytes) is shared: each kind of
/// one-time record the configuration enables (web sessions, multi-protocol presentations, proximity sessions,
/// OpenID4VP's records, issued Apple nonces) gets an equal
/// part, and each integrator a share of its kind's part (`integrators.maxSessionsPerIntegrator`, by default the part
/// divided among the integrators), in count and in bytes. So nonces cannot crowd out web sessions, and one integrator
/// cannot crowd out another, however large its requests.
struct SessionAdmission: Sendable {
    /// The most one session may keep (its stored record: keys, what was asked, a signed request object): a request
    /// that would keep more is refused (400 `SESSION_TOO_LARGE`).
    static let maximumRecordBytes = 64 << 10

    let quota: SessionQuota

    init(configuration: ServiceConfiguration, integratorCount: Int) {
        var kinds: [SessionKind] = []
        if configuration.web != nil { kinds.append(WebSession.kind) }
        if configuration.proximity != nil { kinds.append(ProximitySession.kind) }
        if configuration.oid4vp != nil {
            // Cross-device requests keep three records (session, request object, result): each kind has its part.
            kinds += [.oid4vpDigitalCredentialsAPI, .oid4vpCrossDevice, .oid4vpRequestObject, .oid4vpResult]
        }
        if configuration.web != nil || configuration.oid4vp != nil { kinds.append(PresentationSession.kind) }
        if configuration.apple?.requireIssuedNonce == true { kinds.append(AppleNonces.kind) }
        let maximum = configuration.web?.maxSessions ?? ServiceConfiguration.Web.defaultMaxSessions
        let perKind = max(1, maximum / max(1, kinds.count))
        let perIntegrator = configuration.integrators.maxSessionsPerIntegrator ?? max(1, perKind / max(1, integratorCount))
        let bytes = configuration.web?.maxSessionBytes ?? ServiceConfiguration.Web.defaultMaxSessionBytes
        let perKindBytes = max(Self.maximumRecordBytes, bytes / max(1, kinds.count))
        let perIntegratorBytes = max(Self.maximumRecordBytes, perKindBytes / max(1, integratorCount))
        quota = SessionQuota(perKind: perKind, perOwner: min(perKind, perIntegrator), perOwnerBytes: perIntegratorBytes)
    }
}
