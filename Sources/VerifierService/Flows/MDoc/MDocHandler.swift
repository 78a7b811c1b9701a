import Encodings
import Foundation
import HTTPServer
import MDoc
import StrictJSON

/// The body of `POST /v1/mdoc/verify`.
struct MDocVerifyRequest: KnownFields {
    let deviceResponse: String
    let sessionTranscript: String
    let readerPrivateKey: String?
    let verificationTime: String?

    enum CodingKeys: String, CodingKey, CaseIterable { case deviceResponse, sessionTranscript, readerPrivateKey, verificationTime }
}

/// `POST /v1/mdoc/verify`: the generic ISO 18013-5 path for flows other than those verifierd runs itself.
struct MDocHandler: Sendable {
    let verification: ResponseVerification
    let clock: RequestClock

    /// Top-level report member present only where the caller supplied the SessionTranscript (always `"caller"`);
    /// the flows that build the transcript themselves leave it out.
    static let sessionTranscriptSourceField = "sessionTranscriptSource"

    func verify(_ request: HTTPServerRequest, for integrator: Integrator) async throws(ServiceProblem) -> HTTPServerResponse {
        let body = try RequestDecoding.decode(MDocVerifyRequest.self, from: request)
        let response = try RequestDecoding.base64(body.deviceResponse, field: "deviceResponse")
        let transcript = try RequestDecoding.base64(body.sessionTranscript, field: "sessionTranscript")
        let time = try clock.verificationTime(body.verificationTime)
        let readerKey = try body.readerPrivateKey.map { text throws(ServiceProblem) in try Self.readerKey(text) }
        // The transcript is the caller's: the device signature proves only that, and the report says so.
        var options = verification.options(at: time, for: integrator.name, readerKey: readerKey)
        options.sessionTranscriptSource = .caller
        let report: VerificationReport
        do {
            let parsed = try DeviceResponse(bytes: response)
            report = await verification.verify(parsed, sessionTranscript: transcript, options: options)
        } catch {
            report = .failure(error.code, error.description)
        }
        return try .report(report, extra: [(Self.sessionTranscriptSourceField, .string(SessionTranscriptSource.caller.rawValue))])
    }

    /// `readerPrivateKey`: a PEM private key, or the raw scalar as hex or base64. `hex:` or `base64:` says which;
    /// without a prefix, text of only hex digits as long as a P-256, P-384 or P-521 scalar in hex (64, 96, 132
    /// characters) is hex, anything else base64. (64 hex digits are also valid base64, of 48 bytes: a P-256 key in
    /// hex must not be taken for a P-384 one.)
    static func readerKey(_ text: String) throws(ServiceProblem) -> EphemeralReaderKey {
        let invalid = { (reason: String) in
            ServiceProblem(.badRequest, "INVALID_READER_KEY", "\"readerPrivateKey\" \(reason)")
        }
        do {
            if text.contains("-----BEGIN") { return try EphemeralReaderKey(pem: text) }
        } catch let error as PEMError {
            throw invalid("is not PEM: \(error)")
        } catch {
            throw invalid("is not a PEM P-256, P-384 or P-521 private key")
        }
        let scalar: [UInt8]
        do throws(BinaryText.Failure) {
            scalar = try BinaryText.decode(text, unprefixedHex: { [64, 96, 132].contains($0) })
        } catch .neither {
            throw invalid("is neither a PEM key nor a raw scalar in hex or base64 (prefix it with hex: or base64: to say which)")
        } catch {
            throw invalid(error.reason)
        }
        do {
            return try EphemeralReaderKey(rawScalar: scalar)
        } catch {
            throw invalid([32, 48, 66].contains(scalar.count)
                ? "is not a valid private scalar of its curve (\(scalar.count) bytes)"
                : "is \(scalar.count) bytes, not a P-256 (32), P-384 (48) or P-521 (66) private scalar")
        }
    }
}
