import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a conditional fetch of a VICAL found.
public enum VICALFetchResult: Sendable {
    /// 304: the list in force is current.
    case notModified
    /// 200 with the body and the validators to send next time.
    case fetched(body: [UInt8], etag: String?, lastModified: String?)
}

/// Fetches a VICAL over URLSession (libcurl on Linux) with `If-None-Match` / `If-Modified-Since`, a deadline and a
/// size cap. Redirects are followed only within the same scheme.
public final class VICALFetcher: Sendable {
    public let timeout: TimeInterval
    public let maximumBytes: Int
    private let session: URLSession

    public init(timeout: TimeInterval = 20, maximumBytes: Int = VICALLimits.default.maximumBytes) {
        self.timeout = timeout
        self.maximumBytes = maximumBytes
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        session = URLSession(configuration: configuration)
    }

    deinit { session.invalidateAndCancel() }

    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// GETs `url`, conditional on the validators of the copy in force.
    public func fetch(_ url: URL, etag: String?, lastModified: String?) async throws(Failure) -> VICALFetchResult {
        guard let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http", url.host != nil else {
            throw Failure(description: "the URL must be http or https")
        }
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.setValue("application/cbor, application/octet-stream;q=0.9, */*;q=0.1", forHTTPHeaderField: "Accept")
        if let etag { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
        if let lastModified { request.setValue(lastModified, forHTTPHeaderField: "If-Modified-Since") }
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch {
            throw Failure(description: "fetch failed: \(error.localizedDescription)")
        }
        guard let http = response as? HTTPURLResponse else { throw Failure(description: "not an HTTP answer") }
        if let final = http.url?.scheme?.lowercased(), final != scheme {
            throw Failure(description: "redirected to another scheme")
        }
        switch http.statusCode {
        case 304:
            return .notModified
        case 200:
            guard data.count <= maximumBytes else {
                throw Failure(description: "the list is \(data.count) bytes; at most \(maximumBytes) are accepted")
            }
            return .fetched(body: Array(data), etag: http.value(forHTTPHeaderField: "ETag"),
                            lastModified: http.value(forHTTPHeaderField: "Last-Modified"))
        default:
            throw Failure(description: "the server answered \(http.statusCode)")
        }
    }
}
