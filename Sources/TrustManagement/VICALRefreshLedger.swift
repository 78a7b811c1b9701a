import Foundation

/// Where replicas share their scheduled VICAL refreshes: the last refresh of each source (by whichever replica), its
/// outcome and validators, and a claim, so that one replica refreshes a source at a time and a restart does not
/// fetch again what is current. The list itself travels as the trust set does (the import is a trust change every
/// replica adopts).
public protocol VICALRefreshLedger: Sendable {
    /// The last refresh of `source`, if any replica made one.
    func record(source: String) async -> VICALRefreshRecord?
    /// Claims the refresh of `source` until `until`: false while another replica's claim runs, or when the record
    /// changed since `seen` was read (another replica refreshed meanwhile).
    func claim(source: String, seen: VICALRefreshRecord?, now: Date, until: Date) async -> Bool
    /// Records a refresh and ends the claim.
    func finish(source: String, record: VICALRefreshRecord) async
}

/// One source's last refresh, as the replicas share it.
public struct VICALRefreshRecord: Sendable, Equatable {
    public var at: Date
    /// As ``VICALRefresher/Outcome/outcome``.
    public var outcome: String
    public var detail: String?
    /// The validators of the list in force, for the next conditional fetch.
    public var etag: String?
    public var lastModified: String?
    /// Failed refreshes in a row (0 after a success), for the retry schedule.
    public var consecutiveFailures: Int

    public init(at: Date, outcome: String, detail: String?, etag: String?, lastModified: String?, consecutiveFailures: Int) {
        self.at = at
        self.outcome = outcome
        self.detail = detail
        self.etag = etag
        self.lastModified = lastModified
        self.consecutiveFailures = consecutiveFailures
    }
}
