import Foundation

/// What the scheduled refresher does with a fetched list of one kind (a VICAL, a list of trusted entities): verify
/// it and import it when it changed, say whether a list of the source is in force, and keep what is in force
/// current.
public protocol TrustListImporter: Sendable {
    /// The kind of list, in logs: `VICAL`, `LoTE`.
    var listKind: String { get }
    /// Verifies and imports `body` fetched for `source` at `time`; never throws: the outcome says what happened.
    func importFetched(_ body: [UInt8], source: String, at time: Date) async -> VICALRefresher.Outcome
    /// Whether a list of `source` is in force (the fetch validators name it only then).
    func isInForce(source: String) -> Bool
    /// Called on every pass of the schedule: applies the kind's rule for a list in force that went stale. Returns
    /// a note for the log when it changed something.
    func enforceFreshness(source: String, at time: Date) async -> String?
    /// The latest time the next pass must come by (a list in force going stale), if any.
    func deadline(source: String) -> Date?
    /// Whether replicas on PostgreSQL share one refresh of `source` (the ledger); false for a list each process
    /// keeps in its own memory, which every replica fetches.
    func sharesRefresh(source: String) -> Bool
}

extension TrustListImporter {
    public func enforceFreshness(source: String, at time: Date) async -> String? { nil }
    public func deadline(source: String) -> Date? { nil }
    public func sharesRefresh(source: String) -> Bool { true }
}
