import Foundation

/// Where replicas share the status lists they fetch: the bytes exactly as fetched (a signed token), when, and who is
/// fetching now. One replica fetches a list per refresh; every replica that uses the bytes verifies them itself, so
/// nothing in the shared place is trusted for more than saving a fetch.
public protocol SharedStatusLists: Sendable {
    /// What was last fetched for `uri`, and the last failure since then, if any.
    func latest(uri: String) async -> SharedStatusListCopy?
    /// Claims the fetch of `uri` until `until`: false while another replica holds a claim that has not run out, or
    /// when the record changed since `seen` was read (another replica published or failed meanwhile: read it again).
    func claim(uri: String, seen: SharedStatusListCopy?, now: Date, until: Date) async -> Bool
    /// Records a fetch whose bytes verified here, and ends the claim.
    func publish(uri: String, bytes: [UInt8], fetchedAt: Date) async
    /// Records a fetch that failed (or whose bytes did not verify), and ends the claim.
    func failed(uri: String, reason: String, at: Date) async
}

/// The shared record of one list.
public struct SharedStatusListCopy: Sendable, Equatable {
    /// The bytes of the last good fetch, and when it was made.
    public var bytes: [UInt8]?
    public var fetchedAt: Date?
    /// The last failed fetch, when it is newer than the last good one.
    public var failedAt: Date?
    public var failure: String?

    public init(bytes: [UInt8]?, fetchedAt: Date?, failedAt: Date?, failure: String?) {
        self.bytes = bytes
        self.fetchedAt = fetchedAt
        self.failedAt = failedAt
        self.failure = failure
    }
}
