/// What a fetch answered (after redirects): the status, the validators a conditional fetch sends next time, and the
/// body, never longer than the limit.
public struct FetchResponse: Sendable {
    public let status: Int
    public let body: [UInt8]
    public let etag: String?
    public let lastModified: String?
    public let contentType: String?
    /// The URL that answered (the last hop).
    public let url: String
    /// Redirects followed.
    public let redirects: Int
}
