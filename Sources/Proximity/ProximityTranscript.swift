import CBOR
import Crypto

/// The SessionTranscript of a proximity session (ISO 18013-5 9.1.5.1):
/// `[DeviceEngagementBytes, EReaderKeyBytes, Handover]`, the tag-24 items exactly as sent and received, the
/// handover as the reader gave it (`null` for QR). Its tag-24 wrapping, SessionTranscriptBytes, salts the
/// session keys and EMacKey.
public struct ProximityTranscript: Sendable, Equatable {
    /// The transcript array, as DeviceAuthentication embeds it.
    public let bytes: [UInt8]
    /// `#6.24(bstr .cbor SessionTranscript)`.
    public let taggedBytes: [UInt8]
    /// `EReaderKeyBytes = #6.24(bstr .cbor COSE_Key)`.
    public let eReaderKeyBytes: [UInt8]
    /// The COSE_Key inside `eReaderKeyBytes`.
    public let eReaderCOSEKey: [UInt8]

    /// `handover` is one encoded CBOR item (e.g. the NFC handover) or nil for the QR handover (`null`).
    public init(engagement: DeviceEngagement, eReaderKey: P256.KeyAgreement.PublicKey, handover: [UInt8]?) {
        eReaderCOSEKey = Self.coseKey(eReaderKey)
        eReaderKeyBytes = CBOREncoder().encode(.tagged(CBORTag.encodedCBOR, .bytes(eReaderCOSEKey)))
        bytes = CBOREncoder().encode([.encoded(engagement.taggedBytes), .encoded(eReaderKeyBytes), handover.map { .encoded($0) } ?? nil])
        taggedBytes = CBOREncoder().encode(.tagged(CBORTag.encodedCBOR, .bytes(bytes)))
    }

    /// The reader key as a COSE_Key `{1: 2, -1: 1, -2: x, -3: y}`.
    public static func coseKey(_ key: P256.KeyAgreement.PublicKey) -> [UInt8] {
        let point = Array(key.x963Representation)
        return CBOREncoder().encode(.map([.init(1, 2), .init(-1, 1), .init(-2, .bytes(Array(point[1..<33]))),
                                          .init(-3, .bytes(Array(point[33..<65])))]))
    }

    static let handoverLimits = CBORDecodingLimits(maxDepth: 16, maxItems: 1024, maxInputBytes: 16 << 10)

    /// Checks that a handover is exactly one CBOR item of reasonable size.
    public static func checkHandover(_ bytes: [UInt8]) throws(ProximityError) {
        do {
            _ = try CBORDecoder(limits: handoverLimits).decode(bytes)
        } catch {
            throw ProximityError(.handoverInvalid, "the handover is not one CBOR item of at most 16 KiB: \(error)")
        }
    }
}
