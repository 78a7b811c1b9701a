import Crypto
import Synchronization
import TrustStore

/// Remembers the chain built for an x5chain against a trust snapshot: parsing the DS certificate and checking its
/// signature by the IACA is the same work for every document of an issuer. Only what does not depend on the time
/// is cached; validity periods are judged on every verification.
///
/// Least recently used entries go first, so a stream of unique chains cannot flush the issuers in daily use.
final class IssuerChainCache: Sendable {
    struct Key: Hashable {
        let x5chainDigest: [UInt8]
        let snapshot: Int
        let policy: IssuerChainPolicy
    }

    private let entries: Mutex<LRUCache<Key, IssuerChain>>
    let capacity: Int

    init(capacity: Int = 512) {
        self.capacity = capacity
        self.entries = Mutex(LRUCache(capacity: capacity))
    }

    /// The process-wide cache.
    static let shared = IssuerChainCache()

    func chain(x5chain: [ArraySlice<UInt8>], trust: TrustSnapshot, policy: IssuerChainPolicy = .iso18013)
        -> IssuerChain
    {
        let key = Self.key(x5chain: x5chain, trust: trust, policy: policy)
        if let cached = entries.withLock({ $0.value(forKey: key) }) { return cached }
        let chain = IssuerChain(x5chain: x5chain, trust: trust, policy: policy)
        entries.withLock { $0.insert(chain, forKey: key) }
        return chain
    }

    static func key(x5chain: [ArraySlice<UInt8>], trust: TrustSnapshot, policy: IssuerChainPolicy) -> Key {
        var hasher = SHA256()
        for certificate in x5chain {
            var length = UInt64(certificate.count).bigEndian
            withUnsafeBytes(of: &length) { hasher.update(bufferPointer: $0) }
            certificate.withUnsafeBytes { hasher.update(bufferPointer: $0) }
        }
        return Key(x5chainDigest: Array(hasher.finalize()), snapshot: trust.identity, policy: policy)
    }
}
