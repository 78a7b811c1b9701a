import Foundation

/// Looks up the keys of issuers an operator listed for JWT VC Issuer Metadata.
public protocol SDJWTVCIssuerKeyResolving: Sendable {
    /// The listed issuers; no other `iss` is ever looked up.
    var listed: [SDJWTVCMetadataIssuer] { get }
    func keys(for issuer: SDJWTVCMetadataIssuer, now: Date) async -> SDJWTVCIssuerKeyLookup
}

/// The keys of listed issuers from their JWT VC Issuer Metadata (and `jwks_uri`), fetched by the injected `fetch`
/// (the service's outbound fetcher and its destination policy; this type does no I/O of its own), one fetch in flight
/// per issuer, kept `cacheSeconds`. A failed lookup is remembered `failureSeconds` (a flood of credentials naming a
/// dead issuer makes one fetch, not one each); the last good keys still answer for `staleGraceSeconds` after they
/// went stale when a refetch fails. Only listed issuers are ever fetched, so the cache holds at most one entry each.
public actor JWTVCIssuerMetadataResolver: SDJWTVCIssuerKeyResolving {
    /// Why a fetch gave no document: a transport error, a refused destination, or an answer other than 200.
    public struct FetchFailure: Error, Sendable {
        public let reason: String
        public init(_ reason: String) { self.reason = reason }
    }

    /// GETs `url` (asking for JSON) and returns the body of a 200 answer, at most ``JWTVCIssuerMetadata/maximumBytes``.
    public typealias Fetch = @Sendable (_ url: String) async -> Result<[UInt8], FetchFailure>

    public nonisolated let listed: [SDJWTVCMetadataIssuer]
    public nonisolated let cacheSeconds: TimeInterval
    public nonisolated let failureSeconds: TimeInterval
    public nonisolated let staleGraceSeconds: TimeInterval
    private let fetch: Fetch
    private var entries: [String: Entry] = [:]
    private var inFlight: [String: Task<SDJWTVCIssuerKeyLookup, Never>] = [:]

    struct Entry {
        var lookup: SDJWTVCIssuerKeyLookup
        var until: Date
        var lastGood: (keys: SDJWTVCIssuerKeys, staleUntil: Date)?
    }

    public init(listed: [SDJWTVCMetadataIssuer], cacheSeconds: TimeInterval = 300, failureSeconds: TimeInterval = 10,
                staleGraceSeconds: TimeInterval = 3600, fetch: @escaping Fetch) {
        self.listed = listed
        self.cacheSeconds = cacheSeconds
        self.failureSeconds = failureSeconds
        self.staleGraceSeconds = staleGraceSeconds
        self.fetch = fetch
    }

    public func keys(for issuer: SDJWTVCMetadataIssuer, now: Date) async -> SDJWTVCIssuerKeyLookup {
        let iss = issuer.iss
        guard listed.listing(of: iss) != nil else { return .unavailable("the issuer is not listed") }
        if let entry = entries[iss], now < entry.until { return Self.answer(entry, now: now) }
        let task: Task<SDJWTVCIssuerKeyLookup, Never>
        if let running = inFlight[iss] {
            task = running
        } else {
            let fetch = self.fetch
            task = Task { await Self.resolve(iss, fetch: fetch) }
            inFlight[iss] = task
        }
        let lookup = await task.value
        if inFlight[iss] == task {
            inFlight[iss] = nil
            var entry = entries[iss] ?? Entry(lookup: lookup, until: now, lastGood: nil)
            entry.lookup = lookup
            if case .keys(let keys) = lookup {
                entry.until = now.addingTimeInterval(cacheSeconds)
                entry.lastGood = (keys, now.addingTimeInterval(cacheSeconds + staleGraceSeconds))
            } else {
                entry.until = now.addingTimeInterval(failureSeconds)
            }
            entries[iss] = entry
        }
        guard let entry = entries[iss] else { return lookup }
        return Self.answer(entry, now: now)
    }

    /// An entry's answer: its keys; after a failed refetch, the last good keys while the stale grace lasts.
    static func answer(_ entry: Entry, now: Date) -> SDJWTVCIssuerKeyLookup {
        if case .keys = entry.lookup { return entry.lookup }
        if let good = entry.lastGood, now < good.staleUntil { return .keys(good.keys) }
        return entry.lookup
    }

    /// Fetches and reads the metadata of `iss`, and its `jwks_uri` when it names one.
    static func resolve(_ iss: String, fetch: Fetch) async -> SDJWTVCIssuerKeyLookup {
        guard let url = JWTVCIssuerMetadata.url(for: iss) else {
            return .invalid("iss is not an http(s) URL without query or fragment")
        }
        let document: [UInt8]
        switch await fetch(url) {
        case .failure(let failure): return .unavailable("\(url): \(failure.reason)")
        case .success(let bytes): document = bytes
        }
        do throws(JWTVCIssuerMetadata.Invalid) {
            switch try JWTVCIssuerMetadata.document(document, iss: iss, source: url) {
            case .jwks(let keys):
                return .keys(keys)
            case .jwksURI(let uri):
                // Section 3: every URL dereferenced is https; plain http only where the metadata itself was (an
                // issuer the operator listed with http, on a destination the allowlist opens).
                guard uri.hasPrefix("https://") || url.hasPrefix("http://") else {
                    return .invalid("jwks_uri is not https")
                }
                switch await fetch(uri) {
                case .failure(let failure): return .unavailable("jwks_uri \(uri): \(failure.reason)")
                case .success(let bytes):
                    return .keys(try JWTVCIssuerMetadata.keySet(bytes, issuer: iss, source: "\(url), jwks_uri \(uri)"))
                }
            }
        } catch {
            return .invalid(error.detail)
        }
    }
}
