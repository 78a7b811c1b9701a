import Foundation
import MDoc
import SDJWTVC
import TrustStore

/// Verifies SD-JWT VC presentations with their revocation status, in one pass: ``SDJWTVCVerifier/prepare(_:options:)``,
/// the JWT status list of a credential valid as issued resolved through the cache (never a URI of any other
/// credential), then ``SDJWTVCVerifier/finish(_:statusEvidence:)``. The SD-JWT VC counterpart of
/// ``StatusAwareVerifier``, for every user of the libraries.
public struct StatusAwareSDJWTVCVerifier: Sendable {
    public let resolver: StatusResolver
    /// The clock status lists are judged at (the credential itself at `options.verificationTime`).
    public let now: @Sendable () -> Date

    public init(resolver: StatusResolver, now: @escaping @Sendable () -> Date) {
        self.resolver = resolver
        self.now = now
    }

    /// The result of `presentation` under `issuerTrust` (the SD-JWT VC issuer anchors, not the IACAs).
    public func verify(_ presentation: String, options: SDJWTVCOptions, issuerTrust: TrustSnapshot) async -> SDJWTVCResult {
        let verifier = SDJWTVCVerifier(trust: issuerTrust)
        let prepared = verifier.prepare(presentation, options: options)
        var evidence: StatusEvidence?
        if let reference = prepared.statusReference {
            evidence = await resolver.evidence(for: reference, issuerTrust: issuerTrust, now: now())
        }
        return verifier.finish(prepared, statusEvidence: evidence)
    }
}
