import Crypto
import Encodings
import StrictJSON

/// One disclosure (RFC 9901 4.2) as received: the string, its digest, and what it decodes to. The digest is over the
/// received string itself, never over a re-encoding: another spelling of the same claim is another disclosure.
public struct Disclosure: Sendable {
    public let text: Substring
    /// base64url(SHA-256(ASCII of ``text``)).
    public let digest: String
    public let salt: String
    /// The claim name of an object-member disclosure (`[salt, name, value]`); nil for an array element (`[salt, value]`).
    public let name: String?
    public let value: JSON

    public init(_ text: Substring, limits: SDJWTLimits) throws(SDJWTFailure) {
        self.text = text
        digest = Self.digest(of: text)
        guard let bytes = text.base64URLDecoded else {
            throw SDJWTFailure(.disclosureMalformed, "a disclosure is not base64url")
        }
        let decoded: JSON
        do {
            decoded = try JSONParser.parse(bytes, limits: .init(maximumDepth: limits.maximumDepth, maximumValues: limits.maximumValues))
        } catch {
            throw SDJWTFailure(.disclosureMalformed, "a disclosure is not strict JSON: \(error)")
        }
        guard case .array(let items) = decoded, items.count == 2 || items.count == 3 else {
            throw SDJWTFailure(.disclosureMalformed, "a disclosure is not a JSON array of two or three elements")
        }
        guard case .string(let salt) = items[0] else { throw SDJWTFailure(.disclosureMalformed, "a disclosure's salt is not a string") }
        self.salt = salt
        if items.count == 3 {
            guard case .string(let name) = items[1] else {
                throw SDJWTFailure(.disclosureMalformed, "a disclosure's claim name is not a string")
            }
            self.name = name
            value = items[2]
        } else {
            name = nil
            value = items[1]
        }
    }

    /// base64url(SHA-256(`text`)).
    public static func digest(of text: some StringProtocol) -> String {
        Base64URL.encode(Array(sha256(text)))
    }

    /// SHA-256 of the UTF-8 of `text`, read in place when it is contiguous.
    public static func sha256(_ text: some StringProtocol) -> SHA256.Digest {
        Substring(text).withBytes { SHA256.hash(data: UnsafeRawBufferPointer($0)) }
    }
}
