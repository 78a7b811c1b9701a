import CBOR
import COSE
import Crypto
import Encodings
import Foundation

/// The mdoc's DeviceEngagement (ISO 18013-5 8.2.1.1), as scanned from its QR code or received over NFC.
///
/// Read strictly for what the session needs: `0` version `1.x`, `1` Security = `[1, EDeviceKeyBytes]` (cipher suite 1,
/// an EC2 P-256 key as tag-24 COSE_Key), `2` DeviceRetrievalMethods when present as `[[type, version, options]…]`.
/// Other keys are kept as sent (they are extensions). The exact bytes go into the SessionTranscript.
public struct DeviceEngagement: Sendable {
    /// The encoded DeviceEngagement map as received.
    public let bytes: [UInt8]
    /// `DeviceEngagementBytes = #6.24(bstr .cbor DeviceEngagement)`, what the transcript embeds.
    public let taggedBytes: [UInt8]
    public let version: String
    /// The mdoc's ephemeral key, for ECDH.
    public let eDeviceKey: P256.KeyAgreement.PublicKey
    /// Retrieval method types announced (1 NFC, 2 BLE, 3 Wi-Fi Aware), for information.
    public let retrievalMethods: [UInt64]

    public static let cipherSuite: UInt64 = 1
    static let limits = CBORDecodingLimits(maxDepth: 8, maxItems: 256, maxInputBytes: 4096)

    /// Reads `mdoc:<base64url>` (the QR form) or base64 of the CBOR map.
    public init(text: String) throws(ProximityError) {
        let bytes: [UInt8]?
        if text.hasPrefix("mdoc:") {
            bytes = Base64URL.decodeBytes(String(text.dropFirst(5)))
        } else {
            bytes = Base64Input.decode(text)
        }
        guard let bytes else {
            throw ProximityError(.deviceEngagementInvalid, "neither mdoc:<base64url> nor base64 CBOR")
        }
        try self.init(bytes: bytes)
    }

    public init(bytes: [UInt8]) throws(ProximityError) {
        let item: CBORItem
        do {
            item = try CBORDecoder(limits: Self.limits).decode(bytes)
        } catch {
            throw Self.invalid("not one CBOR item of at most 4096 bytes: \(error)")
        }
        guard let pairs = item.mapValue else { throw Self.invalid("not a map") }
        guard pairs.allSatisfy({ $0.key.intValue != nil }) else { throw Self.invalid("a key is not an integer") }
        guard let version = item[intKey: 0]?.textValue, version.hasPrefix("1.") else {
            throw Self.invalid("version (key 0) is missing or not 1.x")
        }
        guard let security = item[intKey: 1]?.arrayValue, security.count >= 2 else {
            throw Self.invalid("Security (key 1) is not [cipherSuiteIdentifier, EDeviceKeyBytes]")
        }
        guard let suite = security[0].unsignedValue else { throw Self.invalid("cipherSuiteIdentifier is not a uint") }
        guard suite == Self.cipherSuite else {
            throw Self.invalid("cipher suite \(suite) is not supported (only cipher suite 1)")
        }
        guard let (tag, keyItem) = security[1].tagged, tag == CBORTag.encodedCBOR, let keyBytes = keyItem.bytesValue else {
            throw Self.invalid("EDeviceKeyBytes is not tag 24")
        }
        let coseKey: COSEKey
        do {
            coseKey = try COSEKey(item: try CBORDecoder(limits: Self.limits).decode(Array(keyBytes)))
        } catch {
            throw Self.invalid("EDeviceKey is not an EC2 COSE_Key")
        }
        guard coseKey.curve == .p256,
              let key = try? P256.KeyAgreement.PublicKey(x963Representation: coseKey.x963Representation)
        else {
            throw Self.invalid("EDeviceKey is on \(coseKey.curve); only P-256 is supported")
        }
        var methods: [UInt64] = []
        if let retrieval = item[intKey: 2] {
            guard let list = retrieval.arrayValue, !list.isEmpty else {
                throw Self.invalid("DeviceRetrievalMethods (key 2) is not a non-empty array")
            }
            for method in list {
                guard let parts = method.arrayValue, parts.count >= 3, let type = parts[0].unsignedValue,
                      parts[1].unsignedValue != nil, parts[2].isMap
                else { throw Self.invalid("a DeviceRetrievalMethod is not [type, version, options]") }
                methods.append(type)
            }
        }
        self.bytes = bytes
        self.taggedBytes = CBOREncoder().encode(.tagged(CBORTag.encodedCBOR, .bytes(bytes)))
        self.version = version
        self.eDeviceKey = key
        self.retrievalMethods = methods
    }

    static func invalid(_ detail: String) -> ProximityError {
        ProximityError(.deviceEngagementInvalid, detail)
    }
}
