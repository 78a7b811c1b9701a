import CBOR
import Crypto

/// The Annex C SessionTranscript: `[null, null, ["dcapi", SHA-256(CBOR([encryptionInfo, origin]))]]`.
///
/// `encryptionInfo` is the base64url string exactly as the page received it and `origin` the serialized origin
/// the browser saw. The 44 bytes are the HPKE `info`, and the same array is embedded in DeviceAuthentication and
/// in ReaderAuthentication(All).
public struct DCAPISessionTranscript: Sendable, Equatable {
    public static let handoverType = "dcapi"

    public let bytes: [UInt8]
    /// SHA-256 of `CBOR([encryptionInfo, origin])`.
    public let dcapiInfoHash: [UInt8]

    public init(encryptionInfo: String, origin: String) {
        let info = CBOREncoder().encode([.text(encryptionInfo), .text(origin)])
        dcapiInfoHash = Array(SHA256.hash(data: info))
        bytes = CBOREncoder().encode([nil, nil, [.text(Self.handoverType), .bytes(dcapiInfoHash)]])
    }
}
