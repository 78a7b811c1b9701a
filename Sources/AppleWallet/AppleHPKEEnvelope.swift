import CBOR
import Crypto
import Foundation

/// The `APPLE-HPKE-v1` envelope that Apple Wallet returns (`PKIdentityDocument.encryptedData`).
///
/// `{"algorithm": "APPLE-HPKE-v1", "params": {"mode": 0, "pkEm": bstr(65), "pkRHash": bstr(32),
/// "infoHash": bstr(32)}, "data": bstr}`, keys in any order. Parsing is strict: unknown keys, wrong types and
/// trailing bytes are errors.
public struct AppleHPKEEnvelope: Sendable {
    public static let algorithmName = "APPLE-HPKE-v1"

    /// The sender's ephemeral public key, uncompressed (`04 || X || Y`), on P-256: HPKE `enc`.
    public let pkEm: [UInt8]
    /// SHA-256 of the recipient public key's uncompressed point: selects the merchant key.
    public let pkRHash: [UInt8]
    /// SHA-256 of the SessionTranscript the app used.
    public let infoHash: [UInt8]
    /// Ciphertext followed by the 16-byte AES-GCM tag.
    public let data: ArraySlice<UInt8>

    static let limits = CBORDecodingLimits(maxDepth: 4, maxItems: 32, maxInputBytes: 4 << 20)

    public init(bytes: [UInt8]) throws(AppleWalletError) {
        let item: CBORItem
        do {
            item = try CBORDecoder(limits: Self.limits).decode(bytes)
        } catch {
            throw AppleWalletError(.envelopeMalformed, "the envelope is not one CBOR item: \(error)")
        }
        let top = try Self.map(item, name: "envelope", keys: ["algorithm", "params", "data"])
        guard let algorithm = top["algorithm"]?.textValue else { throw Self.malformed("algorithm is missing or not text") }
        guard algorithm == Self.algorithmName else {
            throw AppleWalletError(.envelopeUnsupported, "algorithm \"\(algorithm)\" is not \(Self.algorithmName)")
        }
        guard let paramsItem = top["params"] else { throw Self.malformed("params is missing") }
        let params = try Self.map(paramsItem, name: "params", keys: ["mode", "pkEm", "pkRHash", "infoHash"])
        guard let mode = params["mode"]?.unsignedValue else { throw Self.malformed("params.mode is missing or not a uint") }
        guard mode == 0 else { throw AppleWalletError(.envelopeUnsupported, "HPKE mode \(mode) is not base mode 0") }
        pkEm = try Self.bytes(params["pkEm"], "params.pkEm", count: 65)
        guard pkEm.first == 0x04, (try? P256.KeyAgreement.PublicKey(x963Representation: pkEm)) != nil else {
            throw Self.malformed("params.pkEm is not an uncompressed point on P-256")
        }
        pkRHash = try Self.bytes(params["pkRHash"], "params.pkRHash", count: 32)
        infoHash = try Self.bytes(params["infoHash"], "params.infoHash", count: 32)
        guard let data = top["data"]?.bytesValue else { throw Self.malformed("data is missing or not a bstr") }
        guard data.count >= 16 else { throw Self.malformed("data is \(data.count) bytes, shorter than the GCM tag") }
        self.data = data
    }

    static func malformed(_ detail: String) -> AppleWalletError {
        AppleWalletError(.envelopeMalformed, detail)
    }

    static func map(_ item: CBORItem, name: String, keys: Set<String>) throws(AppleWalletError) -> [String: CBORItem] {
        guard let pairs = item.mapValue else { throw malformed("\(name) is \(item.kindWithArticle), expected a map") }
        var result: [String: CBORItem] = [:]
        for pair in pairs {
            guard let key = pair.key.textValue, keys.contains(key) else {
                throw malformed("\(name) has an unexpected key at offset \(pair.key.offset)")
            }
            result[key] = pair.value
        }
        return result
    }

    static func bytes(_ item: CBORItem?, _ name: String, count: Int) throws(AppleWalletError) -> [UInt8] {
        guard let bytes = item?.bytesValue else { throw malformed("\(name) is missing or not a bstr") }
        guard bytes.count == count else { throw malformed("\(name) is \(bytes.count) bytes, expected \(count)") }
        return Array(bytes)
    }
}
