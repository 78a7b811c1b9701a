#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The steps of a trust-directory write, named for the crash-safety test hook.
public enum TrustWriteStep: String, Sendable, CaseIterable {
    /// Half of the first certificate file of the new version is written.
    case write
    /// Every file of the new version and its staging folder are fsynced; the version is not in place yet.
    case fsync
    /// The new version is renamed into `.versions/`; `current` still names the old one.
    case rename
    /// `current` names the new version; the directory entry is not fsynced yet.
    case `switch`

    /// The environment variable that arms the hook: `VERIFIERD_TEST_CRASH_IN_TRUST_WRITE=<step>` makes the process
    /// kill itself (SIGKILL, as `kill -9` or a power cut would) when a write reaches that step. Test only; `serve`
    /// warns at start-up when it is set.
    public static let crashHookEnvironmentName = "VERIFIERD_TEST_CRASH_IN_TRUST_WRITE"

    /// The step armed for this process, read once.
    public static let armedCrash: TrustWriteStep? =
        ProcessInfo.processInfo.environment[crashHookEnvironmentName].flatMap(TrustWriteStep.init(rawValue:))

    /// Kills the process when this step is the armed one.
    func reached() {
        if Self.armedCrash == self { kill(getpid(), SIGKILL) }
    }
}
