import Crypto

/// The Concat KDF of NIST SP 800-56A as JWA uses it for ECDH-ES (RFC 7518 4.6.2), with SHA-256; one round gives up
/// to 256 bits, which covers A128GCM and A256GCM.
enum ConcatKDF {
    static func derive(sharedSecret: [UInt8], algorithm: String, partyU: [UInt8], partyV: [UInt8], keyBits: Int) -> [UInt8] {
        precondition(keyBits > 0 && keyBits <= 256, "one SHA-256 round")
        var input: [UInt8] = [0, 0, 0, 1]
        input += sharedSecret
        appendLengthPrefixed(Array(algorithm.utf8), to: &input)
        appendLengthPrefixed(partyU, to: &input)
        appendLengthPrefixed(partyV, to: &input)
        appendUInt32(UInt32(keyBits), to: &input)
        return Array(Array(SHA256.hash(data: input)).prefix(keyBits / 8))
    }

    private static func appendLengthPrefixed(_ bytes: [UInt8], to out: inout [UInt8]) {
        appendUInt32(UInt32(bytes.count), to: &out)
        out += bytes
    }

    private static func appendUInt32(_ value: UInt32, to out: inout [UInt8]) {
        out += [UInt8(value >> 24), UInt8((value >> 16) & 0xff), UInt8((value >> 8) & 0xff), UInt8(value & 0xff)]
    }
}
