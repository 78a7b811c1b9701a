import MDoc

extension WebSession {
    /// The page's answer (`DigitalCredential.data.response`, base64url of the `dcapi` DCAPIEncryptedResponse) decrypted
    /// with this session's recipient key and transcript, then verified by `check` for what was requested.
    /// Decryption failures are the report's `failureCode`.
    public func verifyAnswer(_ response: String, check: DeviceResponseCheck) async -> VerificationReport {
        do throws(ResponseFailure) {
            let encrypted = try DCAPIEncryptedResponse(base64URL: response)
            let deviceResponse = try WebResponseDecryptor.open(encrypted, recipientKey: recipientKey, transcript: transcript)
            return await check(deviceResponse, transcript.bytes, requested)
        } catch {
            return .failure(error.code, error.detail)
        }
    }
}
