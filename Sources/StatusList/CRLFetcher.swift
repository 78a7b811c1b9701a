import CertificateRevocation
import Foundation
import OutboundFetch

/// Fetches CRLs through the service's one ``OutboundFetcher`` (its destination policy: a distribution point outside
/// `outbound.allowedDestinations` on a private or loopback address is never contacted; plain http only to an
/// allowlisted destination), asking for `application/pkix-crl`; only a 200 answer is a CRL.
public protocol CRLFetching: Sendable {
    func fetch(_ url: String) async -> Result<[UInt8], CRLFetchFailure>
}

/// Why no CRL bytes came back.
public struct CRLFetchFailure: Error, Sendable, Equatable {
    public let problem: CRLProblem
    public let detail: String

    public init(_ problem: CRLProblem, _ detail: String) {
        self.problem = problem
        self.detail = detail
    }
}

public struct CRLFetcher: CRLFetching {
    public let fetcher: OutboundFetcher
    public let maximumBytes: Int
    let limits: FetchLimits
    /// Lowercase schemes a distribution point may use.
    public let allowedSchemes: Set<String>

    public init(fetcher: OutboundFetcher, maximumBytes: Int, timeout: TimeInterval, connectTimeout: Int = 5, idleTimeout: Int = 10,
                allowedSchemes: Set<String> = ["http", "https"]) {
        self.fetcher = fetcher
        self.maximumBytes = maximumBytes
        self.allowedSchemes = allowedSchemes
        limits = FetchLimits(totalTimeout: timeout, connectTimeout: TimeInterval(connectTimeout), idleTimeout: TimeInterval(idleTimeout),
                             maximumBodyBytes: maximumBytes)
    }

    public func fetch(_ url: String) async -> Result<[UInt8], CRLFetchFailure> {
        guard let scheme = URLComponents(string: url)?.scheme?.lowercased(), allowedSchemes.contains(scheme) else {
            return .failure(CRLFetchFailure(.unavailable, "the distribution point's scheme is not allowed (crl.allowedSchemes)"))
        }
        do {
            let response = try await fetcher.get(url, headers: ["Accept: application/pkix-crl"], limits: limits)
            guard response.status == 200 else { return .failure(CRLFetchFailure(.unavailable, "the server answered \(response.status)")) }
            return .success(response.body)
        } catch {
            return .failure(CRLFetchFailure(error.kind == .tooLarge ? .tooLarge : .unavailable, error.description))
        }
    }
}
