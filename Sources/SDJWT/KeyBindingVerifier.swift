import Crypto
import Encodings
import Foundation
import StrictJSON

/// Verifies a Key Binding JWT (RFC 9901 4.3, 7.3 step 5): `typ` `kb+jwt`, ES256 by the holder's key from `cnf.jwk`,
/// `sd_hash` over the presentation exactly as received up to its last `~`, `nonce` and `aud` each one string equal to
/// the expected value, `iat` within the window. Other claims are ignored.
public struct KeyBindingVerifier: Sendable {
    public let limits: SDJWTLimits

    public init(limits: SDJWTLimits = SDJWTLimits()) {
        self.limits = limits
    }

    /// What the holder signed, for the report (holder-asserted, never mixed with issuer claims).
    public struct Verified: Sendable, Equatable {
        public let issuedAt: Date
        public let nonce: String
        public let audience: String
        /// `transaction_data_hashes` and `transaction_data_hashes_alg` as the KB-JWT carries them (OpenID4VP 1.0
        /// B.3.3.1), unchecked: what they must be depends on the request (`sdjwt.transactionData`).
        public var transactionDataHashes: JSON?
        public var transactionDataHashesAlgorithm: JSON?

        public init(issuedAt: Date, nonce: String, audience: String, transactionDataHashes: JSON? = nil,
                    transactionDataHashesAlgorithm: JSON? = nil) {
            self.issuedAt = issuedAt
            self.nonce = nonce
            self.audience = audience
            self.transactionDataHashes = transactionDataHashes
            self.transactionDataHashesAlgorithm = transactionDataHashesAlgorithm
        }
    }

    public func verify(_ presentation: SDJWTPresentation, holderKey: P256.Signing.PublicKey,
                       expected: KeyBindingExpectation) throws(SDJWTFailure) -> Verified {
        guard let text = presentation.keyBindingJWT else { throw SDJWTFailure(.keyBindingMissing, "the presentation has no KB-JWT") }
        let jws: CompactJWS
        do { jws = try CompactJWS(text, limits: limits) } catch {
            throw SDJWTFailure(.keyBindingMalformed, "the KB-JWT: \(error.reason)")
        }
        guard jws.type == "kb+jwt" else {
            throw SDJWTFailure(.keyBindingTypInvalid, "the KB-JWT's typ is \(jws.type.map { "\"\($0.prefix(32))\"" } ?? "missing"), not \"kb+jwt\"")
        }
        guard jws.algorithm == ES256.name, jws.header[member: "crit"] == nil else {
            throw SDJWTFailure(.keyBindingSignatureInvalid, "the KB-JWT is not ES256 (alg \(jws.algorithm.map { String($0.prefix(16)) } ?? "missing")) or names crit")
        }
        guard ES256.isValid(jws.signature, over: jws.signingInput, key: holderKey) else {
            throw SDJWTFailure(.keyBindingSignatureInvalid, "the KB-JWT's signature does not verify with cnf.jwk")
        }
        let claims = jws.payload
        guard case .string(let sdHash)? = claims[member: "sd_hash"] else {
            throw SDJWTFailure(.keyBindingMalformed, "the KB-JWT has no string sd_hash")
        }
        guard case .string(let nonce)? = claims[member: "nonce"] else {
            throw SDJWTFailure(.keyBindingMalformed, "the KB-JWT has no string nonce")
        }
        guard let audienceValue = claims[member: "aud"] else { throw SDJWTFailure(.keyBindingMalformed, "the KB-JWT has no aud") }
        guard let iat = Self.numericDate(claims[member: "iat"]) else {
            throw SDJWTFailure(.keyBindingMalformed, "the KB-JWT has no numeric iat")
        }
        let expectedHash = Base64URL.encode(Array(Disclosure.sha256(presentation.keyBindingInput)))
        guard ConstantTime.equals(sdHash, expectedHash) else {
            throw SDJWTFailure(.keyBindingHashMismatch, "sd_hash is not the SHA-256 of the presentation as received up to its last '~'")
        }
        guard ConstantTime.equals(nonce, expected.nonce) else {
            throw SDJWTFailure(.keyBindingNonceMismatch, "the KB-JWT's nonce is not the request's")
        }
        guard case .string(let audience) = audienceValue, audience == expected.audience else {
            throw SDJWTFailure(.keyBindingAudienceMismatch, "the KB-JWT's aud is not the one string \"\(expected.audience)\"")
        }
        let issuedAt = Date(timeIntervalSince1970: iat)
        guard issuedAt >= expected.notBefore, issuedAt <= expected.notAfter else {
            throw SDJWTFailure(.keyBindingIssuedAtOutOfWindow,
                               "the KB-JWT's iat \(RFC3339Timestamp.string(issuedAt)) is outside \(RFC3339Timestamp.string(expected.notBefore)) … \(RFC3339Timestamp.string(expected.notAfter))")
        }
        return Verified(issuedAt: issuedAt, nonce: nonce, audience: audience,
                        transactionDataHashes: claims[member: "transaction_data_hashes"],
                        transactionDataHashesAlgorithm: claims[member: "transaction_data_hashes_alg"])
    }

    /// A NumericDate (RFC 7519 2): a JSON number of seconds, integer or not, within years 0001 to 9999 (a date
    /// outside them is no date anyone issues, and would not print); nil for anything else.
    public static func numericDate(_ value: JSON?) -> Double? {
        let seconds: Double
        switch value {
        case .int(let integer)?: seconds = Double(integer)
        case .double(let number)? where number.isFinite: seconds = number
        default: return nil
        }
        return abs(seconds) <= maximumNumericDate ? seconds : nil
    }

    /// 9999-12-31T23:59:59Z in seconds since the epoch.
    public static let maximumNumericDate: Double = 253_402_300_799
}
