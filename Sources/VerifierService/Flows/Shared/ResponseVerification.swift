import Foundation
import MDoc
import StatusList
import TrustManagement
import TrustStore

/// Verifies a DeviceResponse the way every flow does: options from the configuration, the trust set in force,
/// status resolved between the two halves of one pass (``MDocVerifier/prepare(_:sessionTranscript:options:)``,
/// then ``MDocVerifier/finish(_:statusEvidence:)``).
struct ResponseVerification: Sendable {
    let trust: TrustStoreManager
    let statusResolver: StatusResolver
    let statusMode: StatusPolicy.Mode
    let statusPolicy: StatusPolicy
    let clockSkew: TimeInterval
    let profileChecks: ProfileCheckMode
    let profileChecksByAnchor: [String: ProfileCheckMode]
    let now: @Sendable () -> Date

    init(configuration: ServiceConfiguration, trust: TrustStoreManager, statusResolver: StatusResolver,
         now: @escaping @Sendable () -> Date)
    {
        self.trust = trust
        self.statusResolver = statusResolver
        statusMode = configuration.status.mode
        statusPolicy = StatusPolicy(mode: configuration.status.mode, unknown: configuration.status.unknown)
        clockSkew = TimeInterval(configuration.verification.clockSkewSeconds)
        profileChecks = configuration.trust.profileChecks
        profileChecksByAnchor = configuration.trust.profileChecksByAnchor
        self.now = now
    }

    /// Options for one verification at `time`.
    func options(at time: Date, readerKey: ReaderKey? = nil) -> VerificationOptions {
        var options = VerificationOptions(verificationTime: time, clockSkew: clockSkew, profileChecks: profileChecks,
                                          profileChecksByAnchor: profileChecksByAnchor, readerKey: readerKey)
        options.statusPolicy = statusPolicy
        return options
    }

    /// Verifies a parsed response after resolving the status references of its authentic MSOs (unless status
    /// checking is off). Status lists are judged at the service clock, the document at `options.verificationTime`.
    func verify(_ response: DeviceResponse, sessionTranscript: [UInt8], options: VerificationOptions,
                trust snapshotOverride: TrustSnapshot? = nil) async -> VerificationReport {
        let snapshot = snapshotOverride ?? trust.snapshot
        let verifier = MDocVerifier(trust: snapshot)
        let prepared = verifier.prepare(response, sessionTranscript: sessionTranscript, options: options)
        var evidence = options.statusEvidence
        if statusMode != .off {
            // Only lists named by authentic MSOs are fetched: never a URI a sender merely wrote into a document.
            evidence = await statusResolver.evidence(for: prepared.statusReferences, trust: snapshot, now: now())
        }
        return verifier.finish(prepared, statusEvidence: evidence)
    }
}
