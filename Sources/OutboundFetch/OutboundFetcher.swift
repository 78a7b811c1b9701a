import Foundation

/// The one way verifierd reaches another server (status lists, VICALs): libcurl under a ``DestinationPolicy``.
///
/// Each fetch checks the URL's scheme and form, lets libcurl connect only to addresses the policy allows (checked at
/// connect time, so a name that resolves differently later changes nothing), follows at most
/// `policy.maximumRedirects` redirects itself, checking each hop again (no https to http), and caps the body while
/// it arrives. Transfers run on one ``FetchDriver`` (libcurl's multi interface on one thread): no Dispatch worker and
/// no task is held while a server is slow. A fetch's deadline (`limits.totalTimeout`) counts from when it is asked
/// for, waiting for a free transfer and every redirect included.
public final class OutboundFetcher: Sendable {
    public let policy: DestinationPolicy
    /// Transfers at once, all destinations together, by default.
    public static let defaultMaximumTransfers = 32
    /// Transfers at once to one `host:port`, by default.
    public static let defaultMaximumPerDestination = 4
    let driver: FetchDriver

    public init(policy: DestinationPolicy, maximumTransfers: Int = OutboundFetcher.defaultMaximumTransfers,
                maximumPerDestination: Int = OutboundFetcher.defaultMaximumPerDestination) {
        self.policy = policy
        driver = FetchDriver(maximumTransfers: maximumTransfers, maximumPerDestination: maximumPerDestination)
    }

    /// GETs `url` with `headers` (`Name: value` lines) under `limits`. Any status is returned (the caller decides
    /// what 200 or 304 mean) except redirects, which are followed.
    public func get(_ url: String, headers: [String] = [], limits: FetchLimits) async throws(FetchError) -> FetchResponse {
        let deadline = ContinuousClock.now + .milliseconds(Int64(max(1, limits.totalTimeout * 1000)))
        var current = url
        var previousScheme: String?
        var redirects = 0
        /// A failure at this hop, naming the redirect that led there.
        func failure(_ error: FetchError) -> FetchError {
            redirects == 0 ? error : FetchError(error.kind, "redirect \(redirects): \(error.reason)")
        }
        while true {
            let target: Target
            switch Self.target(current) {
            case .success(let parsed): target = parsed
            case .failure(let error): throw failure(error)
            }
            if let reason = policy.refusal(scheme: target.scheme, host: target.host, port: target.port,
                                           previousScheme: previousScheme) {
                throw failure(FetchError(.refused, reason))
            }
            guard ContinuousClock.now < deadline else {
                throw FetchError(.timedOut, "no complete answer within \(CurlTransfer.seconds(limits.totalTimeout)) s")
            }
            let transfer: CurlTransfer
            do throws(FetchError) {
                transfer = try CurlTransfer(current, urlHost: target.host, port: target.port, requestHeaders: headers,
                                            limits: limits, policy: policy)
            } catch {
                throw failure(error)
            }
            let answer: CurlTransfer.Answer
            switch await run(transfer, deadline: deadline, limits: limits) {
            case .success(let got): answer = got
            case .failure(let error): throw failure(error)
            }
            if [301, 302, 303, 307, 308].contains(answer.status) {
                guard let next = answer.redirectURL else {
                    throw FetchError(.failed, "a redirect (\(answer.status)) without a usable Location")
                }
                guard redirects < policy.maximumRedirects else {
                    throw FetchError(.refused, "more than \(policy.maximumRedirects) redirects")
                }
                redirects += 1
                previousScheme = target.scheme
                current = next
                continue
            }
            func header(_ name: String) -> String? { answer.headers.last { $0.name == name }?.value }
            return FetchResponse(status: answer.status, body: answer.body, etag: header("etag"),
                                 lastModified: header("last-modified"), contentType: header("content-type"),
                                 url: current, redirects: redirects)
        }
    }

    /// POSTs `body` to `url` with `headers` under `limits`, once: the destination policy applies as for a GET, but a
    /// redirect is never followed (a body is not sent on to where a server points): its status comes back as is.
    public func post(_ url: String, headers: [String] = [], body: [UInt8], limits: FetchLimits) async throws(FetchError) -> FetchResponse {
        let deadline = ContinuousClock.now + .milliseconds(Int64(max(1, limits.totalTimeout * 1000)))
        let target: Target
        switch Self.target(url) {
        case .success(let parsed): target = parsed
        case .failure(let error): throw error
        }
        if let reason = policy.refusal(scheme: target.scheme, host: target.host, port: target.port, previousScheme: nil) {
            throw FetchError(.refused, reason)
        }
        let transfer = try CurlTransfer(url, urlHost: target.host, port: target.port, requestHeaders: headers, limits: limits,
                                        policy: policy, postBody: body)
        let answer = try await run(transfer, deadline: deadline, limits: limits).get()
        func header(_ name: String) -> String? { answer.headers.last { $0.name == name }?.value }
        return FetchResponse(status: answer.status, body: answer.body, etag: header("etag"), lastModified: header("last-modified"),
                             contentType: header("content-type"), url: url, redirects: 0)
    }

    /// One transfer on the driver, until it ends or the deadline passes.
    private func run(_ transfer: CurlTransfer, deadline: ContinuousClock.Instant, limits: FetchLimits) async
        -> Result<CurlTransfer.Answer, FetchError>
    {
        await withCheckedContinuation { (continuation: CheckedContinuation<Result<CurlTransfer.Answer, FetchError>, Never>) in
            driver.submit(FetchDriver.Job(transfer: transfer, deadline: deadline, timeout: limits.totalTimeout) {
                continuation.resume(returning: $0)
            })
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
