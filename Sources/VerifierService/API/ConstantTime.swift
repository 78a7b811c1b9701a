import Crypto

/// Secret comparison that takes the same time whatever the inputs (lengths are hidden by hashing first).
enum ConstantTime {
    static func equals(_ presented: String, _ expected: String) -> Bool {
        let a = Array(SHA256.hash(data: Array(presented.utf8)))
        let b = Array(SHA256.hash(data: Array(expected.utf8)))
        var difference: UInt8 = 0
        for i in 0..<a.count { difference |= a[i] ^ b[i] }
        return difference == 0
    }

    /// Whether `presented` matches any of `expected`, checking all of them.
    static func matchesAny(_ presented: String, _ expected: [String]) -> Bool {
        var matched = false
        for candidate in expected where equals(presented, candidate) { matched = true }
        return matched
    }
}
