import Foundation
import MDoc
import StatusList
import TrustManagement
import TrustStore

/// The configuration's verification settings (options, status policy, the trust set in force) handed to the
/// library's ``StatusAwareVerifier``, which every flow verifies through.
struct ResponseVerification: Sendable {
    let trust: TrustStoreManager
    /// Built once: the status resolver, `status.mode` and the service clock lists are judged at.
    let statusAware: StatusAwareVerifier
    let statusPolicy: StatusPolicy
    let clockSkew: TimeInterval
    let profileChecks: ProfileCheckMode
    let profileChecksByAnchor: [String: ProfileCheckMode]

    init(configuration: ServiceConfiguration, trust: TrustStoreManager, statusResolver: StatusResolver,
         now: @escaping @Sendable () -> Date)
    {
        self.trust = trust
        statusAware = StatusAwareVerifier(resolver: statusResolver, mode: configuration.status.mode, now: now)
        statusPolicy = StatusPolicy(mode: configuration.status.mode, unknown: configuration.status.unknown)
        clockSkew = TimeInterval(configuration.verification.clockSkewSeconds)
        profileChecks = configuration.trust.profileChecks
        profileChecksByAnchor = configuration.trust.profileChecksByAnchor
    }

    /// Options for one verification at `time`.
    func options(at time: Date, readerKey: ReaderKey? = nil) -> VerificationOptions {
        var options = VerificationOptions(verificationTime: time, clockSkew: clockSkew, profileChecks: profileChecks,
                                          profileChecksByAnchor: profileChecksByAnchor, readerKey: readerKey)
        options.statusPolicy = statusPolicy
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
    func check(at time: Date, trust: TrustSnapshot? = nil) -> DeviceResponseCheck {
        { [self] response, transcript, requested in
            var options = self.options(at: time)
            options.requestedItems = requested
            return await verify(response, sessionTranscript: transcript, options: options, trust: trust)
        }
    }
}
