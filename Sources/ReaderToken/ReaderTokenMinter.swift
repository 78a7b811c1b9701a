import Crypto
import Encodings
import Foundation

/// Mints ES256 JWT reader tokens for Apple's Verifier API (`MobileDocumentReader.prepare(using:)`).
///
/// Thread-safe and `Sendable`; the signing key is redacted from all descriptions and mirrors.
public struct ReaderTokenMinter: Sendable {
    /// The `aud` claim Apple requires.
    public static let audience = "apple-identityservices-v1"
    /// Latest accepted `now` (9999-12-31T23:59:59Z), keeping `iat`/`exp` well inside JSON-safe integers.
    static let maximumEpochSeconds: Double = 253_402_300_799

    /// The validated configuration.
    public let configuration: ReaderTokenConfiguration
    private let signingKey: ReaderTokenSigningKey
    private let encodedHeader: String

    /// Creates a minter. The header is fixed per minter: `{"alg":"ES256","kid":<keyId>,"typ":"JWT"}`.
    public init(configuration: ReaderTokenConfiguration, signingKey: ReaderTokenSigningKey) {
        self.configuration = configuration
        self.signingKey = signingKey
        let header = JSONText.object(["alg": .string("ES256"), "kid": .string(configuration.keyId), "typ": .string("JWT")])
        self.encodedHeader = Base64URL.encode(header.utf8)
    }

    /// Mints a token for `readerInstanceIdentifier`, with `iat = floor(now)` and `exp = iat + lifetimeSeconds`.
    /// - Parameter now: the injected current time; fractional seconds are dropped.
    /// - Throws: ``ReaderTokenError`` (`INVALID_READER_INSTANCE_IDENTIFIER`, `INVALID_ISSUED_AT`, `SIGNING_FAILED`).
    public func mint(readerInstanceIdentifier: String, now: Date) throws(ReaderTokenError) -> MintedReaderToken {
        try ReaderInstanceIdentifier.validate(readerInstanceIdentifier)
        let seconds = now.timeIntervalSince1970.rounded(.down)
        guard seconds.isFinite, seconds >= 0, seconds <= Self.maximumEpochSeconds else {
            throw .invalidIssuedAt(reason: "must be between 1970-01-01 and 9999-12-31 UTC")
        }
        let iat = Int64(seconds)
        let exp = iat + Int64(configuration.lifetimeSeconds)
        let payload = JSONText.object([
            "aud": .string(Self.audience),
            "iss": .string(configuration.brandId),
            "sub": .string(readerInstanceIdentifier),
            "iat": .integer(iat),
            "exp": .integer(exp),
        ])
        let token: String
        do {
            token = try ES256CompactJWS.sign(encodedHeader: encodedHeader, payload: Array(payload.utf8), key: signingKey.privateKey)
        } catch {
            throw .signingFailed
        }
        return MintedReaderToken(
            token: token,
            issuedAt: Date(timeIntervalSince1970: TimeInterval(iat)),
            expiresAt: Date(timeIntervalSince1970: TimeInterval(exp))
        )
    }
}

extension ReaderTokenMinter: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String {
        "ReaderTokenMinter(brandId: \(configuration.brandId), keyId: \(configuration.keyId), "
            + "lifetimeSeconds: \(configuration.lifetimeSeconds), signingKey: <redacted>)"
    }
    public var debugDescription: String { description }
    public var customMirror: Mirror {
        Mirror(self, children: ["configuration": configuration, "signingKey": "<redacted>"], displayStyle: .struct)
    }
}
