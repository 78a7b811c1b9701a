import CertificateRevocation
import Foundation
import MDoc
import OpenID4VP
import OutboundFetch
import SDJWT
import SDJWTVC
import StatusList
import TrustManagement
import TrustStore
import ZKMdoc

/// The configuration's verification settings (options, status policy, the trust set in force) handed to the
/// library's ``StatusAwareVerifier``, which every flow verifies through.
struct ResponseVerification: Sendable {
    let trust: LiveTrustSet
    /// Built once: the status resolver, `status.mode` and the service clock lists are judged at.
    let statusAware: StatusAwareVerifier
    let statusPolicy: StatusPolicy
    let clockSkew: TimeInterval
    let profileChecks: ProfileCheckMode
    let profileChecksByAnchor: [String: ProfileCheckMode]
    /// The SD-JWT VC issuer trust set (not the IACAs); nil when `sdJwtVc` is not configured.
    let sdJwtVcIssuers: LiveTrustSet?
    let sdJwtVcStatusAware: StatusAwareSDJWTVCVerifier
    /// The oldest KB-JWT `iat` accepted, before the clock skew: the longer of the session lifetime and the
    /// configured maximum age.
    let keyBindingMaxAge: TimeInterval
    /// The accepted zero-knowledge systems and the proof pool; nil without a `zk` section.
    let zeroKnowledge: ZkDocumentVerifier?
    /// `trust.requestTrustedAuthorities`: whether requests built from `documents` name the anchors in force.
    let namesAnchors: Bool
    /// The service clock.
    let now: @Sendable () -> Date
    /// `crl.mode`: how issuer chains' CRLs apply.
    let certificateRevocation: CertificateRevocationPolicy

    /// The trust set whose anchors requests built now name as trusted authorities; nil when they name none.
    var anchorsToName: TrustSnapshot? { namesAnchors ? trust.snapshot : nil }

    init(configuration: ServiceConfiguration, trust: LiveTrustSet, statusResolver: StatusResolver,
         now: @escaping @Sendable () -> Date, sdJwtVcIssuers: LiveTrustSet? = nil, outbound: OutboundFetcher,
         zeroKnowledge: ZkDocumentVerifier? = nil)
    {
        self.trust = trust
        self.zeroKnowledge = zeroKnowledge
        namesAnchors = configuration.trust.requestTrustedAuthorities == .anchors
        self.now = now
        self.sdJwtVcIssuers = sdJwtVcIssuers
        // Issuers listed for JWT VC Issuer Metadata, their keys fetched through the one outbound fetcher.
        var issuerKeys: JWTVCIssuerMetadataResolver?
        if let sdJwtVc = configuration.sdJwtVc, !sdJwtVc.metadataIssuers.isEmpty {
            issuerKeys = .fetching(through: outbound, listed: sdJwtVc.metadataIssuers,
                                   timeout: TimeInterval(configuration.status.fetchTimeoutSeconds),
                                   cacheSeconds: TimeInterval(sdJwtVc.metadataCacheSeconds))
        }
        sdJwtVcStatusAware = StatusAwareSDJWTVCVerifier(resolver: statusResolver, issuerKeys: issuerKeys, crls: statusResolver.crls, now: now)
        keyBindingMaxAge = TimeInterval(max(configuration.sdJwtVc?.keyBindingMaxAgeSeconds ?? 300, configuration.oid4vp?.sessionTTLSeconds ?? 0))
        statusAware = StatusAwareVerifier(resolver: statusResolver, mode: configuration.status.mode, crls: statusResolver.crls, now: now)
        certificateRevocation = configuration.crl.policy
        statusPolicy = StatusPolicy(mode: configuration.status.mode, unknown: configuration.status.unknown)
        clockSkew = TimeInterval(configuration.verification.clockSkewSeconds)
        profileChecks = configuration.trust.profileChecks
        profileChecksByAnchor = configuration.trust.profileChecksByAnchor
    }

    /// Options for one verification at `time` for the integrator named `caller` (whose share of the proof pool a proof
    /// takes; nil for the command line).
    func options(at time: Date, for caller: String?, readerKey: EphemeralReaderKey? = nil) -> VerificationOptions {
        var options = VerificationOptions(verificationTime: time, clockSkew: clockSkew, profileChecks: profileChecks,
                                          profileChecksByAnchor: profileChecksByAnchor, readerKey: readerKey)
        options.statusPolicy = statusPolicy
        options.certificateRevocation = certificateRevocation
        options.zeroKnowledge = zeroKnowledge
        options.proofPoolCaller = caller ?? ""
        return options
    }

    /// Verifies a parsed response with its status (``StatusAwareVerifier``) under the trust set in force, or under
    /// `snapshotOverride`.
    func verify(_ response: DeviceResponse, sessionTranscript: [UInt8], options: VerificationOptions,
                trust snapshotOverride: TrustSnapshot? = nil) async -> VerificationReport {
        await statusAware.verify(response, sessionTranscript: sessionTranscript, options: options, trust: snapshotOverride ?? trust.snapshot)
    }

    /// The check every flow's library is handed: the configured options at `time` with what was requested, status,
    /// and the trust set in force (or `trust`, for the command line's own anchors).
    func check(at time: Date, for caller: String?, trust: TrustSnapshot? = nil) -> DeviceResponseCheck {
        { [self] response, transcript, requested in
            var options = self.options(at: time, for: caller)
            options.requestedItems = requested
            return await verify(response, sessionTranscript: transcript, options: options, trust: trust)
        }
    }

    /// Options for one SD-JWT VC at `time`: the KB-JWT must name `nonce` and `audience` with an `iat` in
    /// [time − the maximum age − skew, time + skew].
    func sdJwtVcOptions(at time: Date, nonce: String, audience: String, query: SDJWTVCQuery?) -> SDJWTVCOptions {
        SDJWTVCOptions(verificationTime: time, clockSkew: clockSkew,
                       keyBinding: KeyBindingExpectation(nonce: nonce, audience: audience,
                                                         notBefore: time.addingTimeInterval(-keyBindingMaxAge - clockSkew),
                                                         notAfter: time.addingTimeInterval(clockSkew)),
                       query: query, statusPolicy: statusPolicy)
            .with(certificateRevocation: certificateRevocation)
    }

    /// The OpenID4VP library's verifier with this service's mdoc and SD-JWT VC checks at `time` (the OpenID4VP and
    /// the multi-protocol presentation routes), its proofs in the pool share of the integrator named `caller`.
    func openID4VPVerifier(at time: Date, for caller: String?) -> OpenID4VPVerifier {
        OpenID4VPVerifier(mdoc: check(at: time, for: caller), sdJwtVc: sdJwtVcCheck(at: time))
    }

    /// The SD-JWT VC check the OpenID4VP verifier is handed: the configured options at `time`, status, and the issuer
    /// trust set in force (or `trust`, for the command line's own anchors). Without `sdJwtVc` configured, every SD-JWT
    /// VC presentation fails with `SDJWT_VC_NOT_CONFIGURED`.
    func sdJwtVcCheck(at time: Date, trust snapshotOverride: TrustSnapshot? = nil) -> SDJWTVCCheck {
        { [self] presentation, nonce, audience, query, transactionData in
            guard let issuers = snapshotOverride ?? sdJwtVcIssuers?.snapshot else {
                return .failure(FailureCode(rawValue: VerificationCodes.sdJwtVcNotConfigured), "SD-JWT VC verification is not configured (sdJwtVc)")
            }
            var options = sdJwtVcOptions(at: time, nonce: nonce, audience: audience, query: query)
            options.transactionData = transactionData
            return await sdJwtVcStatusAware.verify(presentation, options: options, issuerTrust: issuers)
        }
    }
}
