import Foundation
import HTTPServer
import MDoc

/// `POST /v1/mdoc/verify`: the generic ISO 18013-5 path for flows other than Apple's.
extension VerifierService {
    struct MDocVerifyRequest: RequestBody {
        static let fields: Set<String> = ["deviceResponse", "sessionTranscript", "readerPrivateKey", "verificationTime"]
        let deviceResponse: String
        let sessionTranscript: String
        let readerPrivateKey: String?
        let verificationTime: String?
    }

    func mdocVerify(_ request: HTTPServerRequest) async throws(ServiceProblem) -> HTTPServerResponse {
        let started = ContinuousClock.now
        let body = try RequestDecoding.decode(MDocVerifyRequest.self, from: request)
        let response = try RequestDecoding.base64(body.deviceResponse, field: "deviceResponse")
        let transcript = try RequestDecoding.base64(body.sessionTranscript, field: "sessionTranscript")
        let time = try RequestDecoding.verificationTime(
            body.verificationTime, allowed: configuration.verification.allowVerificationTimeOverride, now: now())
        var readerKey: ReaderKey?
        if let text = body.readerPrivateKey {
            do {
                if text.contains("-----BEGIN") {
                    readerKey = try ReaderKey(pem: text)
                } else {
                    readerKey = try ReaderKey(rawScalar: try RequestDecoding.base64(text, field: "readerPrivateKey"))
                }
            } catch let problem as ServiceProblem {
                throw problem
            } catch {
                throw ServiceProblem(.badRequest, "INVALID_READER_KEY",
                                     "\"readerPrivateKey\" is not a P-256, P-384 or P-521 private key")
            }
        }
        let report: VerificationReport
        do {
            let parsed = try DeviceResponse(bytes: response)
            report = await verify(parsed, sessionTranscript: transcript,
                                  options: verificationOptions(at: time, readerKey: readerKey), trust: trustStore.snapshot)
        } catch {
            report = .failure(error.code, error.description)
        }
        return try reportResponse(report, endpoint: "mdoc", started: started)
    }
}
