import CBOR
import Crypto

/// The SessionTranscript of Apple's in-app flow:
/// `[null, null, ["AppleIdentityPresentment_1.0", nonce, merchantId, teamId, pkRHash]]`, definite lengths and
/// preferred encoding, no tag 24. Its bytes are the HPKE `info`, its SHA-256 is the envelope's `infoHash`, and
/// the same array is embedded in DeviceAuthentication.
public struct AppleSessionTranscript: Sendable, Equatable {
    public static let handoverVersion = "AppleIdentityPresentment_1.0"
    /// Apple allows nonces of at most 64 bytes.
    public static let nonceLengths = 1...64

    /// The encoded transcript.
    public let bytes: [UInt8]
    /// SHA-256 of `bytes`, what the envelope's `infoHash` must equal.
    public let infoHash: [UInt8]

    /// Builds the transcript from the raw nonce bytes the app passed to `PKIdentityRequest`.
    public init(nonce: [UInt8], merchantId: String, teamId: String, pkRHash: [UInt8]) throws(AppleWalletError) {
        guard Self.nonceLengths.contains(nonce.count) else {
            throw AppleWalletError(.nonceInvalid, "the nonce is \(nonce.count) bytes; Apple allows 1 to 64")
        }
        let handover: CBOR = [.text(Self.handoverVersion), .bytes(nonce), .text(merchantId), .text(teamId), .bytes(pkRHash)]
        bytes = CBOREncoder().encode([nil, nil, handover])
        infoHash = Array(SHA256.hash(data: bytes))
    }
}
