import Crypto

/// Secret comparison that takes the same time whatever the inputs (lengths are hidden by hashing first).
public enum ConstantTime {
    /// The SHA-256 a secret is compared by; configured secrets can be hashed once, at start-up.
    public static func digest(_ secret: String) -> [UInt8] {
        Array(SHA256.hash(data: Array(secret.utf8)))
    }

    public static func equals(_ presented: String, _ expected: String) -> Bool {
        index(of: presented, among: [digest(expected)]) != nil
    }

    /// Whether `presented` matches any of `expected`, checking all of them.
    public static func matchesAny(_ presented: String, _ expected: [String]) -> Bool {
        index(of: presented, among: expected.map(digest)) != nil
    }

    /// The position of the digest `presented` hashes to among `digests` (each a ``digest(_:)``), comparing with
    /// every one of them in full whatever matches, so the time taken shows neither whether nor where.
    public static func index(of presented: String, among digests: [[UInt8]]) -> Int? {
        let presented = digest(presented)
        var found: Int?
        for (position, candidate) in digests.enumerated() {
            var difference: UInt8 = 0
            for i in 0..<presented.count { difference |= presented[i] ^ candidate[i] }
            if difference == 0 { found = position }
        }
        return found
    }
}
