import Foundation
import OutboundFetch

/// Fetches status list tokens. The verification path awaits at most the configured deadline for any fetch.
public protocol StatusListFetching: Sendable {
    /// The body of a 200 answer to a GET of `url` asking for `accept` (the list's media type).
    func fetch(_ url: URL, accept: String) async throws(StatusListError) -> [UInt8]
}

/// Limits on what a status list fetch may cost, and which URI schemes a status reference may use.
public struct StatusFetchLimits: Sendable, Equatable {
    /// Whole-fetch deadline, connections and redirects included.
    public var timeout: TimeInterval
    /// Largest body read; a longer one is cut off while it arrives.
    public var maximumBytes: Int
    /// URI schemes a reference may name, lowercase (`https`; `http` only when listed, and then only to a destination
    /// the outbound allowlist opens).
    public var allowedSchemes: Set<String>

    public init(timeout: TimeInterval = 5, maximumBytes: Int = 10 << 20, allowedSchemes: Set<String> = ["https"]) {
        self.timeout = timeout
        self.maximumBytes = maximumBytes
        self.allowedSchemes = allowedSchemes
    }
}

/// Fetches status lists through the service's one ``OutboundFetcher`` (its destination policy, redirect and size
/// rules) with `Accept` naming the list's media type (`application/statuslist+cwt`, `application/statuslist+jwt`);
/// only a 200 answer is a list.
public struct StatusListFetcher: StatusListFetching {
    public let limits: StatusFetchLimits
    public let fetcher: OutboundFetcher
    let fetchLimits: FetchLimits

    /// `connectTimeout` and `idleTimeout` (seconds) bound each connection and each silence within `limits.timeout`.
    public init(limits: StatusFetchLimits, fetcher: OutboundFetcher, connectTimeout: Int = 5, idleTimeout: Int = 10) {
        self.limits = limits
        self.fetcher = fetcher
        fetchLimits = FetchLimits(totalTimeout: limits.timeout, connectTimeout: TimeInterval(connectTimeout),
                                  idleTimeout: TimeInterval(idleTimeout), maximumBodyBytes: limits.maximumBytes)
    }

    public func fetch(_ url: URL, accept: String) async throws(StatusListError) -> [UInt8] {
        guard let scheme = url.scheme?.lowercased(), limits.allowedSchemes.contains(scheme), url.host != nil else {
            throw StatusListError("the URI scheme is not allowed (status.allowedSchemes)")
        }
        let response: FetchResponse
        do {
            response = try await fetcher.get(url.absoluteString, headers: ["Accept: \(accept)"],
                                             limits: fetchLimits)
        } catch {
            throw StatusListError(error.description)
        }
        guard response.status == 200 else { throw StatusListError("the server answered \(response.status)") }
        return response.body
    }
}
