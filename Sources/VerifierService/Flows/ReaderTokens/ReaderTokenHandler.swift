import Encodings
import Foundation
import HTTPServer
import ReaderToken
import ReportEncoding
import StrictJSON

/// The body of `POST /v1/reader-tokens`.
struct ReaderTokenRequest: KnownFields {
    let readerInstanceIdentifier: String

    enum CodingKeys: String, CodingKey, CaseIterable { case readerInstanceIdentifier }
}

/// `POST /v1/reader-tokens`: an ES256 reader token for Apple's Verifier API, for a client that presents one of
/// `readerTokens.clientTokens`.
struct ReaderTokenHandler: Sendable {
    let readerTokens: ReaderTokenService?
    let metrics: ServiceMetrics
    let now: @Sendable () -> Date

    func mint(_ request: HTTPServerRequest, for _: Void) throws(ServiceProblem) -> HTTPServerResponse {
        do {
            return try mintUnmetered(request)
        } catch {
            metrics.readerToken(outcome: error.code)
            throw error
        }
    }

    private func mintUnmetered(_ request: HTTPServerRequest) throws(ServiceProblem) -> HTTPServerResponse {
        guard let readerTokens else {
            throw ServiceProblem(.serviceUnavailable, "READER_TOKENS_DISABLED", "readerTokens is not configured")
        }
        guard let presented = request.bearerToken, ConstantTime.matchesAny(presented, readerTokens.clientTokens) else {
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
