import CertificateRevocation
import ZKMdoc

/// A DeviceResponse half verified by ``MDocVerifier/prepare(_:sessionTranscript:options:)``: what is known before
/// revocation is looked up.
public struct PreparedResponse: Sendable {
    /// Why the SessionTranscript is unusable (the whole response then fails), or nil.
    let transcriptProblem: String?
    let contexts: [DocumentContext]
    /// The status references worth fetching: those of documents that are otherwise valid as issued (the document
    /// signer chains to a trusted IACA, every certificate of the path is within its validity, the IACA may vouch for
    /// the docType, warnings the operator granted included; the certificate profile does not fail; the signature over
    /// the MSO verifies: `DocumentContext.notValidAsIssuedReason`). A reference in any other MSO is the sender's say-so
    /// (or an issuer's that no longer counts), and fetching it would let a request make this service call a URI for
    /// a document that fails anyway.
    public let statusReferences: Set<StatusReferenceKey>
    /// The `zkDocuments`, with every check but the proof settled.
    let zkContexts: [ZKDocumentContext]
    /// The certificates whose CRLs are worth fetching, each with its issuer: the paths of the documents valid as
    /// issued (the same rule as ``statusReferences``), when CRL checking is on. Resolve them
    /// (``ChainRevocationChecker``) and hand the outcomes to ``MDocVerifier/finish(_:statusEvidence:zeroKnowledgeOutcomes:certificateRevocation:)``.
    public let revocationLinks: [ChainRevocationChecker.Link]

    init(transcriptProblem: String?, contexts: [DocumentContext], statusReferences: Set<StatusReferenceKey>,
         zkContexts: [ZKDocumentContext] = [], revocationLinks: [ChainRevocationChecker.Link] = []) {
        self.transcriptProblem = transcriptProblem
        self.contexts = contexts
        self.statusReferences = statusReferences
        self.zkContexts = zkContexts
        self.revocationLinks = revocationLinks
    }

    /// The zero-knowledge proofs left to check, in document order: run them (``ZKProofJob/run()``, on a
    /// ``ZKProofPool`` in the service) and hand the outcomes, in the same order, to
    /// ``MDocVerifier/finish(_:statusEvidence:zeroKnowledgeOutcomes:)``.
    public var zeroKnowledgeProofs: [ZKProofJob] { zkContexts.compactMap(\.proofJob) }
}
