import CertificateRevocation
import Foundation
import MDoc
import SDJWTVC
import TrustStore

/// Verifies SD-JWT VC presentations with their revocation status, in one pass: for an issuer listed for JWT VC Issuer
/// Metadata its keys looked up, ``SDJWTVCVerifier/prepare(_:options:issuerKeys:)``, the JWT status list of a
/// credential valid as issued resolved through the cache (never a URI of any other credential), then
/// ``SDJWTVCVerifier/finish(_:statusEvidence:)``. The SD-JWT VC counterpart of ``StatusAwareVerifier``, for every user
/// of the libraries.
public struct StatusAwareSDJWTVCVerifier: Sendable {
    public let resolver: StatusResolver
    /// The keys of issuers an operator listed for JWT VC Issuer Metadata; nil when none are.
    public let issuerKeys: (any SDJWTVCIssuerKeyResolving)?
    /// The clock status lists and issuer metadata are judged at (the credential itself at `options.verificationTime`).
    public let now: @Sendable () -> Date

    /// Where CRLs of issuer chains come from.
    public let crls: (any CRLSource)?

    public init(resolver: StatusResolver, issuerKeys: (any SDJWTVCIssuerKeyResolving)? = nil, crls: (any CRLSource)? = nil,
                now: @escaping @Sendable () -> Date) {
        self.resolver = resolver
        self.issuerKeys = issuerKeys
        self.crls = crls
        self.now = now
    }

    /// The result of `presentation` under `issuerTrust` (the SD-JWT VC issuer anchors, not the IACAs).
    public func verify(_ presentation: String, options: SDJWTVCOptions, issuerTrust: TrustSnapshot) async -> SDJWTVCResult {
        let verifier = SDJWTVCVerifier(trust: issuerTrust, metadataIssuers: issuerKeys?.listed ?? [])
        var lookup: SDJWTVCIssuerKeyLookup?
        if let issuerKeys, let listed = verifier.listedIssuer(of: presentation, limits: options.limits) {
            lookup = await issuerKeys.keys(for: listed, now: now())
        }
        let prepared = verifier.prepare(presentation, options: options, issuerKeys: lookup)
        async let revocation = StatusAwareVerifier.revocation(prepared.revocationLinks, source: crls, at: now())
        var evidence: StatusEvidence?
        if let reference = prepared.statusReference {
            var keys: SDJWTVCIssuerKeys?
            if case .keys(let found)? = lookup { keys = found }
            evidence = await resolver.evidence(for: reference, issuerTrust: issuerTrust, issuerKeys: keys, now: now())
        }
        return verifier.finish(prepared, statusEvidence: evidence, certificateRevocation: await revocation ?? [:])
    }
}
