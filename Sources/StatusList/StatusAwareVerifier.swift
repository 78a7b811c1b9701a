import Foundation
import MDoc
import TrustStore

/// Verifies DeviceResponses with their revocation status, in one pass: ``MDocVerifier/prepare(_:sessionTranscript:options:)``,
/// the status references of the documents valid as issued resolved through the cache (never a URI of any other
/// document), then ``MDocVerifier/finish(_:statusEvidence:)``. Every user of the libraries verifies this way: the
/// service's flows and the command line alike.
public struct StatusAwareVerifier: Sendable {
    public let resolver: StatusResolver
    /// `off`: nothing is fetched, and `mso.status` says so.
    public let mode: StatusPolicy.Mode
    /// The clock status lists are judged at (the document itself at `options.verificationTime`).
    public let now: @Sendable () -> Date

    public init(resolver: StatusResolver, mode: StatusPolicy.Mode, now: @escaping @Sendable () -> Date) {
        self.resolver = resolver
        self.mode = mode
        self.now = now
    }

    /// The report of `response` under `trust`.
    public func verify(_ response: DeviceResponse, sessionTranscript: [UInt8], options: VerificationOptions,
                       trust: TrustSnapshot) async -> VerificationReport {
        let verifier = MDocVerifier(trust: trust)
        let prepared = verifier.prepare(response, sessionTranscript: sessionTranscript, options: options)
        var evidence = options.statusEvidence
        if mode != .off {
            evidence = await resolver.evidence(for: prepared.statusReferences, trust: trust, now: now())
        }
        return verifier.finish(prepared, statusEvidence: evidence)
    }
}
