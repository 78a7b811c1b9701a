import Encodings
import StrictJSON

/// A JWS in compact serialization (RFC 7515 7.1), split and decoded but not verified: the header and payload as
/// strict JSON objects, the exact signing input, and the signature bytes.
public struct CompactJWS: Sendable {
    public let header: JSON
    public let payload: JSON
    /// `BASE64URL(header) '.' BASE64URL(payload)` exactly as received: what the signature covers.
    public let signingInput: [UInt8]
    public let signature: [UInt8]

    /// Why the text is not a compact JWS of JSON objects.
    public struct Malformed: Error, Sendable {
        public let reason: String
    }

    public init(_ text: Substring, limits: SDJWTLimits) throws(Malformed) {
        let parts = text.splitBytes(UInt8(ascii: "."))
        guard parts.count == 3 else { throw Malformed(reason: "a compact JWS has three parts; this has \(parts.count)") }
        header = try Self.object(parts[0], "header", limits: limits)
        payload = try Self.object(parts[1], "payload", limits: limits)
        // An empty signature (`alg` `none`) is read, so that the refusal names the algorithm.
        guard let signature = parts[2].base64URLDecoded else {
            throw Malformed(reason: "the signature is not base64url")
        }
        self.signature = signature
        let signed = parts[0].utf8.count + 1 + parts[1].utf8.count
        signingInput = text.withBytes { Array(UnsafeBufferPointer(rebasing: $0[0..<signed])) }
    }

    static func object(_ part: Substring, _ name: String, limits: SDJWTLimits) throws(Malformed) -> JSON {
        guard let bytes = part.base64URLDecoded else { throw Malformed(reason: "the \(name) is not base64url") }
        let value: JSON
        do {
            value = try JSONParser.parse(bytes, limits: .init(maximumDepth: limits.maximumDepth, maximumValues: limits.maximumValues))
        } catch {
            throw Malformed(reason: "the \(name) is not strict JSON: \(error)")
        }
        guard case .object = value else { throw Malformed(reason: "the \(name) is not a JSON object") }
        return value
    }

    /// The header's `alg`.
    public var algorithm: String? { header[member: "alg"]?.stringValue }
    /// The header's `typ`.
    public var type: String? { header[member: "typ"]?.stringValue }
}
