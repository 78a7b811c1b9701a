import CertificateRevocation
import Foundation
import X509
import ZKMdoc

/// How strictly the ISO 18013-5 Annex B certificate profile is applied.
public enum ProfileCheckMode: String, Sendable, Codable, CaseIterable {
    /// The default: violations of mandatory rules fail the document, departures from recommendations are warnings.
    case warn
    /// Every finding fails the document.
    case enforce
    /// Every finding is only a warning. Meant for one named test anchor whose certificates ignore the profile
    /// (Apple's sample root has no countryName), never as the default.
    case lenient
}

/// Who built the SessionTranscript a verification checks the device authentication against.
public enum SessionTranscriptSource: String, Sendable, Codable, CaseIterable {
    /// The verifier built it from its own session (Apple's nonce, a web request, a proximity engagement): the device
    /// signature or MAC binds the response to that session.
    case verifier
    /// The caller supplied it (`POST /v1/mdoc/verify`): the device signature or MAC proves only that the device
    /// signed the transcript the caller chose, not that the response belongs to any session of ours.
    case caller
}

/// Inputs to one verification besides the response itself. The clock is always a parameter, never read inside.
public struct VerificationOptions: Sendable {
    /// The instant at which validity periods are judged.
    public var verificationTime: Date
    /// Tolerance for MSO validFrom/validUntil, in seconds.
    public var clockSkew: TimeInterval
    /// Default profile mode for every anchor.
    public var profileChecks: ProfileCheckMode
    /// Per-anchor profile mode, by the anchor's lowercase hex SHA-256.
    public var profileChecksByAnchor: [String: ProfileCheckMode]
    /// The reader's ephemeral private key, needed to check a device MAC.
    public var readerKey: EphemeralReaderKey?
    /// Caps and intermediate-CA rule for the issuer's certification path.
    public var chainPolicy: IssuerChainPolicy = .iso18013
    /// How revocation status is applied.
    public var statusPolicy = StatusPolicy()
    /// What the reader requested; when set, `request.elements` compares the answer with it.
    public var requestedItems: RequestedItems?
    /// Status evidence resolved before verification (fetching is asynchronous; checks are not), by reference.
    public var statusEvidence: [StatusReferenceKey: StatusEvidence] = [:]
    /// How CRLs apply to the issuer's path (`issuer.certificateRevocation`). Off unless the caller resolves CRLs into
    /// ``certificateRevocationEvidence`` (the service does, as `crl.mode` says): this library fetches nothing.
    public var certificateRevocation = CertificateRevocationPolicy(mode: .off)
    /// CRL outcomes resolved before verification, by certificate (each below its anchor, judged against its issuer).
    public var certificateRevocationEvidence: [Certificate: CertificateRevocationOutcome] = [:]
    /// Where the SessionTranscript came from; with ``SessionTranscriptSource/caller`` the `device.authentication`
    /// detail says that the transcript was the caller's.
    public var sessionTranscriptSource: SessionTranscriptSource = .verifier
    /// The zero-knowledge systems accepted and where proofs run; nil: every ZK document fails `zk.system`.
    public var zeroKnowledge: ZkDocumentVerifier?
    /// Whose share of the proof pool this verification's proofs take (``ZKProofPool/maximumPerCaller``): the
    /// integrator that asked, so that one integrator cannot hold the pool every other one shares.
    public var proofPoolCaller = ""

    public init(verificationTime: Date, clockSkew: TimeInterval = 300, profileChecks: ProfileCheckMode = .warn,
                profileChecksByAnchor: [String: ProfileCheckMode] = [:], readerKey: EphemeralReaderKey? = nil) {
        self.verificationTime = verificationTime
        self.clockSkew = clockSkew
        self.profileChecks = profileChecks
        self.profileChecksByAnchor = profileChecksByAnchor
        self.readerKey = readerKey
    }
}

/// A status reference as a dictionary key.
public enum StatusReferenceKey: Sendable, Hashable {
    case statusList(StatusReferences.StatusList)
    case identifierList(StatusReferences.IdentifierList)
}
