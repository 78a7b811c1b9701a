import Foundation
import MDoc
import TrustStore
import ZKMdoc

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
        // Zero-knowledge proofs run on the pool's own threads (or here, without a pool); a full pool refuses the
        // whole response before its status is fetched.
        var zeroKnowledgeOutcomes: [String?]?
        let proofs = prepared.zeroKnowledgeProofs
        if !proofs.isEmpty, let pool = options.zeroKnowledge?.pool {
            guard let outcomes = await pool.run(for: options.proofPoolCaller, { proofs.map { $0.run() } }) else {
                let seconds = pool.retryAfterSeconds
                return .busy(.zkCapacityExhausted, "zero-knowledge proofs are being checked at the configured limit "
                             + "(zk.maxConcurrent \(pool.maximumRunning), zk.maxQueued \(pool.maximumWaiting)); retry after \(seconds) s",
                             retryAfterSeconds: seconds)
            }
            zeroKnowledgeOutcomes = outcomes
        }
        var evidence = options.statusEvidence
        if mode != .off {
            evidence = await resolver.evidence(for: prepared.statusReferences, trust: trust, now: now())
        }
        return verifier.finish(prepared, statusEvidence: evidence, zeroKnowledgeOutcomes: zeroKnowledgeOutcomes)
    }
}
