import Foundation
import OutboundFetch
import SDJWTVC

extension JWTVCIssuerMetadataResolver {
    /// A resolver for `listed` that fetches through the service's one ``OutboundFetcher`` (its destination policy:
    /// https, or http only to an allowlisted destination; every redirect checked again), asking for JSON, reading at
    /// most ``JWTVCIssuerMetadata/maximumBytes`` within `timeout` seconds; only a 200 answer is a document (an error
    /// body is never read as one).
    public static func fetching(through fetcher: OutboundFetcher, listed: [SDJWTVCMetadataIssuer], timeout: TimeInterval = 5,
                                cacheSeconds: TimeInterval = 300) -> JWTVCIssuerMetadataResolver {
        let limits = FetchLimits(totalTimeout: timeout, connectTimeout: min(timeout, 5), idleTimeout: min(timeout, 10),
                                 maximumBodyBytes: JWTVCIssuerMetadata.maximumBytes)
        return JWTVCIssuerMetadataResolver(listed: listed, cacheSeconds: cacheSeconds) { url in
            do throws(FetchError) {
                let response = try await fetcher.get(url, headers: ["Accept: application/json, application/jwk-set+json"], limits: limits)
                guard response.status == 200 else { return .failure(.init("the server answered \(response.status)")) }
                return .success(response.body)
            } catch {
                return .failure(.init(error.description))
            }
        }
    }
}
