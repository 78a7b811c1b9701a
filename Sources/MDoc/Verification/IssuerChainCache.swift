import Crypto
import Synchronization
import TrustStore

/// Remembers the chain built for an x5chain against a trust snapshot: parsing the DS certificate and checking its
/// signature by the IACA is the same work for every document of an issuer. Only what does not depend on the time
/// is cached; validity periods are judged on every verification.
final class IssuerChainCache: Sendable {
    struct Key: Hashable {
        let x5chainDigest: [UInt8]
        let snapshot: Int
    }

    private let entries = Mutex<[Key: IssuerChain]>([:])
    let capacity: Int

    init(capacity: Int = 512) {
        self.capacity = capacity
    }

    /// The process-wide cache.
    static let shared = IssuerChainCache()

    func chain(x5chain: [ArraySlice<UInt8>], trust: TrustSnapshot) -> IssuerChain {
        var hasher = SHA256()
        for certificate in x5chain {
            var length = UInt64(certificate.count).bigEndian
            withUnsafeBytes(of: &length) { hasher.update(bufferPointer: $0) }
            certificate.withUnsafeBytes { hasher.update(bufferPointer: $0) }
        }
        let key = Key(x5chainDigest: Array(hasher.finalize()), snapshot: trust.identity)
        if let cached = entries.withLock({ $0[key] }) { return cached }
        let chain = IssuerChain(x5chain: x5chain, trust: trust)
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = chain
        }
        return chain
    }
}
