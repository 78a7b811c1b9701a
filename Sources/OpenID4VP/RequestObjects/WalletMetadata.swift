import StrictJSON

/// What a wallet says of itself when it fetches a request object by POST (OpenID4VP 1.0 §5.10.1, §10: the
/// `wallet_metadata` form parameter), read strictly: a JSON object of at most ``maximumBytes``, each member verifierd
/// uses of the type §10 and RFC 8414 give it; members it does not use are ignored, as §10 requires.
public struct WalletMetadata: Sendable, Equatable {
    public static let maximumBytes = 16 << 10

    /// `vp_formats_supported`: the formats, each with its algorithm lists (name → the algorithms, as text).
    public let formats: [String: [String: [String]]]?
    /// `client_id_prefixes_supported` (absent: `pre-registered` only).
    public let clientIdPrefixes: [String]?
    /// `request_object_signing_alg_values_supported`.
    public let requestObjectSigningAlgorithms: [String]?
    /// `authorization_encryption_alg_values_supported` and `authorization_encryption_enc_values_supported`.
    public let encryptionAlgorithms: [String]?
    public let contentEncryptions: [String]?
    /// `jwks.keys`: public keys to encrypt the request object to (the wallet asks for it to be encrypted).
    public let keys: [JSON]?

    /// Why a `wallet_metadata` value is refused (`invalid_request`).
    public struct Malformed: Error, Sendable, Equatable {
        public let detail: String
    }

    public init(_ text: String) throws(Malformed) {
        guard text.utf8.count <= Self.maximumBytes else {
            throw Malformed(detail: "wallet_metadata is over \(Self.maximumBytes) bytes")
        }
        let json: JSON
        do {
            json = try JSONParser.parse(Array(text.utf8), limits: JSONParser.Limits(maximumDepth: 8, maximumValues: 1_024))
        } catch {
            throw Malformed(detail: "wallet_metadata is not JSON: \(error)")
        }
        guard case .object(let members) = json else { throw Malformed(detail: "wallet_metadata is not a JSON object") }
        var seen = Set<String>()
        for (name, _) in members where !seen.insert(name).inserted {
            throw Malformed(detail: "wallet_metadata names \"\(name.prefix(64))\" twice")
        }
        func strings(_ name: String) throws(Malformed) -> [String]? {
            guard let value = json[member: name] else { return nil }
            guard case .array(let items) = value, !items.isEmpty, items.count <= 64 else {
                throw Malformed(detail: "wallet_metadata.\(name) is not a non-empty array of at most 64 strings")
            }
            let texts = items.compactMap(\.stringValue)
            guard texts.count == items.count, texts.allSatisfy({ !$0.isEmpty && $0.utf8.count <= 256 }) else {
                throw Malformed(detail: "wallet_metadata.\(name) holds a value that is not a non-empty string")
            }
            return texts
        }
        clientIdPrefixes = try strings("client_id_prefixes_supported")
        requestObjectSigningAlgorithms = try strings("request_object_signing_alg_values_supported")
        encryptionAlgorithms = try strings("authorization_encryption_alg_values_supported")
        contentEncryptions = try strings("authorization_encryption_enc_values_supported")
        if let value = json[member: "vp_formats_supported"] {
            guard case .object(let entries) = value, entries.count <= 32 else {
                throw Malformed(detail: "wallet_metadata.vp_formats_supported is not an object of at most 32 formats")
            }
            var formats: [String: [String: [String]]] = [:]
            for (format, parameters) in entries {
                guard case .object(let lists) = parameters else {
                    throw Malformed(detail: "wallet_metadata.vp_formats_supported.\(format.prefix(64)) is not an object")
                }
                var algorithms: [String: [String]] = [:]
                for (name, list) in lists where name.hasSuffix("alg_values") {
                    // COSE algorithms are integers, JOSE ones strings: both kept as their text.
                    guard case .array(let items) = list, items.count <= 64 else {
                        throw Malformed(detail: "wallet_metadata.vp_formats_supported.\(format.prefix(64)).\(name.prefix(64)) is not an array")
                    }
                    algorithms[name] = try items.map { item throws(Malformed) in
                        switch item {
                        case .string(let text): return text
                        case .int(let number): return String(number)
                        default: throw Malformed(detail: "an algorithm in wallet_metadata.vp_formats_supported.\(format.prefix(64)) is neither a string nor an integer")
                        }
                    }
                }
                formats[format] = algorithms
            }
            self.formats = formats
        } else {
            formats = nil
        }
        if let value = json[member: "jwks"] {
            guard case .array(let items)? = value[member: "keys"], !items.isEmpty, items.count <= 8 else {
                throw Malformed(detail: "wallet_metadata.jwks is not {\"keys\": [1 to 8 JWKs]}")
            }
            keys = items
        } else {
            keys = nil
        }
        if json[member: "jwks_uri"] != nil {
            throw Malformed(detail: "wallet_metadata.jwks_uri is not fetched: give the keys in jwks")
        }
    }
}
