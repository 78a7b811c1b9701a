import Foundation
import ReaderToken

/// The configured reader-token minter and the client tokens allowed to ask for tokens.
public struct ReaderTokenService: Sendable {
    /// Mints the tokens, with the configured key, brand and key IDs and lifetime.
    public let minter: ReaderTokenMinter
    /// The bearer tokens of the clients allowed to ask for reader tokens.
    public let clientTokens: [String]

    /// Reads the signing key and checks the settings; a problem names `readerTokens.signingKey` or `readerTokens`.
    public init(configuration: ServiceConfiguration.ReaderTokens) throws(ConfigurationError) {
        let pem = try ConfiguredFile.text(configuration.signingKey, key: "readerTokens.signingKey")
        let key: ReaderTokenSigningKey
        do {
            key = try ReaderTokenSigningKey(pemRepresentation: pem)
        } catch {
            throw ConfigurationError(key: "readerTokens.signingKey", "\(configuration.signingKey.path): \(error.message)")
        }
        let tokenConfiguration: ReaderTokenConfiguration
        do {
            tokenConfiguration = try ReaderTokenConfiguration(
                brandId: configuration.brandId, keyId: configuration.keyId, lifetimeSeconds: configuration.lifetimeSeconds)
        } catch {
            throw ConfigurationError(key: "readerTokens", error.message)
        }
        minter = ReaderTokenMinter(configuration: tokenConfiguration, signingKey: key)
        clientTokens = configuration.clientTokens
    }
}
