import TrustLists
import TrustStore

/// What importing (or dry-running) a list of trusted entities did or would do to one trust set.
public struct LoTEImportResult: Sendable {
    public let verified: VerifiedLoTE
    /// Which set: `iaca` or `sdJwtVcIssuers`.
    public let trustSet: String
    public let diff: TrustSetDiff
    public let dryRun: Bool
    /// The snapshot version after the import (the one in force for a dry run).
    public let version: Int
}
