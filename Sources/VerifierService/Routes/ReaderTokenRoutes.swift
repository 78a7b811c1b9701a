import Foundation
import HTTPServer
import ReaderToken

/// The configured reader-token minter and the client tokens allowed to ask for tokens.
struct ReaderTokenService: Sendable {
    let minter: ReaderTokenMinter
    let clientTokens: [String]

    init(configuration: ServiceConfiguration.ReaderTokens) throws(ConfigurationError) {
        guard let pem = try? String(contentsOf: configuration.signingKey, encoding: .utf8) else {
            throw ConfigurationError(key: "readerTokens.signingKey", "cannot read \(configuration.signingKey.path)")
        }
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

/// `POST /v1/reader-tokens`: an ES256 reader token for Apple's Verifier API.
extension VerifierService {
    struct ReaderTokenRequest: RequestBody {
        static let fields: Set<String> = ["readerInstanceIdentifier"]
        let readerInstanceIdentifier: String
    }

    func mintReaderToken(_ request: HTTPServerRequest) throws(ServiceProblem) -> HTTPServerResponse {
        do {
            return try mintReaderTokenUnmetered(request)
        } catch {
            metrics.readerToken(outcome: error.code)
            throw error
        }
    }

    private func mintReaderTokenUnmetered(_ request: HTTPServerRequest) throws(ServiceProblem) -> HTTPServerResponse {
        guard let readerTokens else {
            throw ServiceProblem(.serviceUnavailable, "READER_TOKENS_DISABLED", "readerTokens is not configured")
        }
        guard let presented = Self.bearerToken(request), ConstantTime.matchesAny(presented, readerTokens.clientTokens) else {
            throw .unauthorized("a valid client bearer token is required")
        }
        let body = try RequestDecoding.decode(ReaderTokenRequest.self, from: request)
        let minted: MintedReaderToken
        do {
            minted = try readerTokens.minter.mint(readerInstanceIdentifier: body.readerInstanceIdentifier, now: now())
        } catch {
            throw ServiceProblem(.badRequest, error.code, error.message)
        }
        metrics.readerToken(outcome: "minted")
        return .json(.object([
            ("token", .string(minted.token)),
            ("issuedAt", .string(ReportJSON.timestamp(minted.issuedAt))),
            ("expiresAt", .string(ReportJSON.timestamp(minted.expiresAt))),
        ]), status: .created)
    }
}
