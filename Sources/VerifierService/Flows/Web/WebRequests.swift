import StrictJSON

/// The body of `POST /v1/web/requests`.
struct WebRequestBody: KnownFields {
    let origin: String
    let documents: [RequestedDocument]?

    enum CodingKeys: String, CodingKey, CaseIterable { case origin, documents }
}

/// The body of `POST /v1/web/verify`: a session's answer, or (with `web.allowStatelessVerify`) the stateless
/// variant, where the caller keeps the key and the encryptionInfo string.
struct WebVerifyBody: KnownFields {
    let sessionId: String?
    let response: String
    let encryptionInfo: String?
    let origin: String?
    let recipientPrivateKey: String?
    let verificationTime: String?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case sessionId, response, encryptionInfo, origin, recipientPrivateKey, verificationTime
    }
}
