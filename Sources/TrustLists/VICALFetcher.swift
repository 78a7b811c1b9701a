import Foundation
import OutboundFetch

/// What a conditional fetch of a VICAL found.
public enum VICALFetchResult: Sendable {
    /// 304: the list in force is current.
    case notModified
    /// 200 with the body and the validators to send next time.
    case fetched(body: [UInt8], etag: String?, lastModified: String?)
}

/// Fetches a VICAL through the service's one ``OutboundFetcher`` (destination policy, re-checked redirects, the size
/// cap applied while the body arrives) with `If-None-Match` / `If-Modified-Since`.
public struct VICALFetcher: Sendable {
    public let limits: FetchLimits
    public let fetcher: OutboundFetcher

    public init(fetcher: OutboundFetcher,
                limits: FetchLimits = FetchLimits(totalTimeout: 20, maximumBodyBytes: VICALLimits.default.maximumBytes)) {
        self.fetcher = fetcher
        self.limits = limits
    }

    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// GETs `url`, conditional on the validators of the copy in force.
    public func fetch(_ url: URL, etag: String?, lastModified: String?) async throws(Failure) -> VICALFetchResult {
        var headers = ["Accept: application/cbor, application/octet-stream;q=0.9, */*;q=0.1"]
        if let etag { headers.append("If-None-Match: \(Self.headerValue(etag))") }
        if let lastModified { headers.append("If-Modified-Since: \(Self.headerValue(lastModified))") }
        let response: FetchResponse
        do {
            response = try await fetcher.get(url.absoluteString, headers: headers, limits: limits)
        } catch {
            throw Failure(description: error.description)
        }
        switch response.status {
        case 304:
            return .notModified
        case 200:
            return .fetched(body: response.body, etag: response.etag, lastModified: response.lastModified)
        default:
            throw Failure(description: "the server answered \(response.status)")
        }
    }

    /// A validator as a header value: control characters (a line break would start another header) removed.
    static func headerValue(_ value: String) -> String {
        String(value.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7f }.map(Character.init))
    }
}
