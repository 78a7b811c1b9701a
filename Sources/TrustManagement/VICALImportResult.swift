import TrustLists
import TrustStore

/// What importing (or dry-running) a VICAL did or would do.
public struct VICALImportResult: Sendable {
    public let verified: VerifiedVICAL
    public let diff: TrustSetDiff
    public let dryRun: Bool
    /// The snapshot version after the import (the one in force for a dry run).
    public let version: Int
}
