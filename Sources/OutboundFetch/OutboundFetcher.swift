import Dispatch
import Foundation

/// The one way verifierd reaches another server (status lists, VICALs): libcurl under a ``DestinationPolicy``.
///
/// Each fetch checks the URL's scheme and form, lets libcurl connect only to addresses the policy allows (checked at
/// connect time, so a name that resolves differently later changes nothing), follows at most
/// `policy.maximumRedirects` redirects itself, checking each hop again (no https to http), and caps the body while
/// it arrives. Transfers block a Dispatch worker, never the caller's task.
public final class OutboundFetcher: Sendable {
    public let policy: DestinationPolicy
    private let queue = DispatchQueue(label: "verifierd.outbound-fetch", attributes: .concurrent)

    public init(policy: DestinationPolicy) {
        self.policy = policy
    }

    /// GETs `url` with `headers` (`Name: value` lines) under `limits`. Any status is returned (the caller decides
    /// what 200 or 304 mean) except redirects, which are followed.
    public func get(_ url: String, headers: [String] = [], limits: FetchLimits) async throws(FetchError) -> FetchResponse {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<FetchResponse, FetchError>, Never>) in
            queue.async { [self] in continuation.resume(returning: fetchBlocking(url, headers: headers, limits: limits)) }
        }
        return try result.get()
    }

    /// The redirect loop, on a worker thread.
    func fetchBlocking(_ url: String, headers: [String], limits: FetchLimits) -> Result<FetchResponse, FetchError> {
        let deadline = Date().addingTimeInterval(limits.totalTimeout)
        var current = url
        var previousScheme: String?
        var redirects = 0
        /// A failure at this hop, naming the redirect that led there.
        func failure(_ error: FetchError) -> Result<FetchResponse, FetchError> {
            .failure(redirects == 0 ? error : FetchError(error.kind, "redirect \(redirects): \(error.reason)"))
        }
        while true {
            let target: Target
            switch Self.target(current) {
            case .success(let parsed): target = parsed
            case .failure(let error): return failure(error)
            }
            if let reason = policy.refusal(scheme: target.scheme, host: target.host, port: target.port,
                                           previousScheme: previousScheme) {
                return failure(FetchError(.refused, reason))
            }
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else {
                return .failure(FetchError(.timedOut, "no complete answer within \(CurlTransfer.seconds(limits.totalTimeout)) s"))
            }
            let answer: CurlTransfer.Answer
            switch CurlTransfer.get(current, urlHost: target.host, requestHeaders: headers, limits: limits,
                                    timeout: remaining, policy: policy) {
            case .success(let got): answer = got
            case .failure(let error): return failure(error)
            }
            if [301, 302, 303, 307, 308].contains(answer.status) {
                guard let next = answer.redirectURL else {
                    return .failure(FetchError(.failed, "a redirect (\(answer.status)) without a usable Location"))
                }
                guard redirects < policy.maximumRedirects else {
                    return .failure(FetchError(.refused, "more than \(policy.maximumRedirects) redirects"))
                }
                redirects += 1
                previousScheme = target.scheme
                current = next
                continue
            }
            func header(_ name: String) -> String? { answer.headers.last { $0.name == name }?.value }
            return .success(FetchResponse(status: answer.status, body: answer.body, etag: header("etag"),
                                          lastModified: header("last-modified"), contentType: header("content-type"),
                                          url: current, redirects: redirects))
        }
    }

    struct Target {
        let scheme: String
        let host: String
        let port: Int
    }

    /// The scheme, host and port of an absolute URL; a URL with user information, no host or an unusable port is
    /// refused before any connection.
    static func target(_ url: String) -> Result<Target, FetchError> {
        guard url.utf8.count <= 8192, let components = URLComponents(string: url), let scheme = components.scheme?.lowercased()
        else { return .failure(FetchError(.refused, "the URL does not parse")) }
        guard scheme == "http" || scheme == "https" else {
            return .failure(FetchError(.refused, "the scheme \(scheme) is refused: only https"))
        }
        guard let host = components.host, !host.isEmpty else { return .failure(FetchError(.refused, "the URL has no host")) }
        guard components.user == nil, components.password == nil else {
            return .failure(FetchError(.refused, "the URL carries user information"))
        }
        let port = components.port ?? (scheme == "https" ? 443 : 80)
        guard (1...65535).contains(port) else { return .failure(FetchError(.refused, "the URL's port is out of range")) }
        return .success(Target(scheme: scheme, host: host, port: port))
    }
}
