import CertificateRevocation
import Foundation
import MDoc
import TrustStore
import X509
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

    /// Where CRLs of issuer chains come from (nil: `issuer.certificateRevocation` reports them unresolved unless the
    /// options turn CRL checking off).
    public let crls: (any CRLSource)?

    public init(resolver: StatusResolver, mode: StatusPolicy.Mode, crls: (any CRLSource)? = nil, now: @escaping @Sendable () -> Date) {
        self.resolver = resolver
        self.mode = mode
        self.crls = crls
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
        // Status lists and CRLs are fetched together, each only for what is valid as issued.
        let time = now()
        async let revocation = Self.revocation(prepared.revocationLinks, source: crls, at: time)
        var evidence = options.statusEvidence
        if mode != .off {
            evidence = await resolver.evidence(for: prepared.statusReferences, trust: trust, now: time)
        }
        return verifier.finish(prepared, statusEvidence: evidence, zeroKnowledgeOutcomes: zeroKnowledgeOutcomes,
                               certificateRevocation: await revocation)
    }

    /// Each link's CRL outcome, by certificate (nil without a source).
    static func revocation(_ links: [ChainRevocationChecker.Link], source: (any CRLSource)?, at time: Date) async
        -> [Certificate: CertificateRevocationOutcome]?
    {
        guard let source, !links.isEmpty else { return nil }
        let outcomes = await ChainRevocationChecker.outcomes(links, source: source, at: time)
        return Dictionary(zip(links.map(\.certificate), outcomes), uniquingKeysWith: { first, _ in first })
    }
}
