import Foundation
import HTTPServer
import MDoc
import OpenID4VP
import ReportEncoding
import SDJWTVC
import StrictJSON

/// The body of `POST /v1/sd-jwt-vc/verify`.
struct SDJWTVCVerifyRequest: KnownFields {
    /// The SD-JWT+KB presentation as received.
    let presentation: String
    /// The nonce and audience the caller's request gave the holder: its KB-JWT must name both.
    let nonce: String
    let audience: String
    /// Optional: the credential types accepted (`meta.vct_values`); absent accepts any trusted one.
    let vctValues: [String]?
    let verificationTime: String?

    enum CodingKeys: String, CodingKey, CaseIterable { case presentation, nonce, audience, vctValues, verificationTime }
}

/// `POST /v1/sd-jwt-vc/verify`: a bare SD-JWT VC with key binding, for presentations that reached the caller some
/// other way than verifierd's OpenID4VP routes. The nonce and audience come from the caller, so the key binding proves
/// only those, and the report says so (`keyBindingSource: "caller"`); every claim is reported (no query).
struct SDJWTVCHandler: Sendable {
    let verification: ResponseVerification
    let clock: RequestClock

    static let keyBindingSourceField = "keyBindingSource"

    func verify(_ request: HTTPServerRequest, for _: Integrator) async throws(ServiceProblem) -> HTTPServerResponse {
        guard verification.sdJwtVcIssuers != nil else {
            // The same code as an SD-JWT VC that reaches an OpenID4VP route of a service without the section.
            throw ServiceProblem(.serviceUnavailable, VerificationCodes.sdJwtVcNotConfigured, "the sdJwtVc section is not configured")
        }
        let body = try RequestDecoding.decode(SDJWTVCVerifyRequest.self, from: request)
        guard !body.nonce.isEmpty, body.nonce.utf8.count <= 512, !body.audience.isEmpty, body.audience.utf8.count <= 2_048 else {
            throw ServiceProblem.invalidRequest("\"nonce\" and \"audience\" are non-empty strings (at most 512 and 2048 bytes)")
        }
        let time = try clock.verificationTime(body.verificationTime)
        var query: SDJWTVCQuery?
        if let types = body.vctValues {
            guard !types.isEmpty, types.count <= 16, types.allSatisfy({ !$0.isEmpty && $0.utf8.count <= 256 }) else {
                throw ServiceProblem.invalidRequest("\"vctValues\" is 1 to 16 non-empty strings of at most 256 bytes")
            }
            query = .typesOnly(types)
        }
        let result = await verification.sdJwtVcCheck(at: time)(body.presentation, body.nonce, body.audience, query, nil)
        let extra: [(String, JSON?)] = [(Self.keyBindingSourceField, .string("caller"))]
        switch result {
        case .failure(let code, let detail):
            var response = HTTPServerResponse.json(ReportJSON.bytes(.failure(code, detail), includeClaims: false,
                                                                    extra: [("detail", .string(detail))] + extra),
                                                   status: .unprocessableContent)
            response.logAnnotations = ["outcome": code.rawValue]
            return response
        case .report(let report):
            let verdict = OpenID4VPVerdict(documents: [.init(credentialId: "", report: .sdJwtVc(report))])
            var response = HTTPServerResponse.json(VerdictJSON.bytes(verdict, includeClaims: true, credentialIds: false, extra: extra),
                                                   status: verdict.verified ? .ok : .unprocessableContent)
            response.logAnnotations = ["outcome": verdict.verified ? "verified" : (verdict.failureCode?.rawValue ?? "NOT_VERIFIED")]
            return response
        }
    }
}
