import StrictJSON

/// The body of `POST /v1/apple/verify`, also read by `verifierd decrypt` from a saved request.
public struct AppleVerifyRequest: KnownFields, Sendable {
    public let encryptedData: String
    public let nonce: String
    public let merchantId: String?
    public let teamId: String?
    public let verificationTime: String?

    public enum CodingKeys: String, CodingKey, CaseIterable { case encryptedData, nonce, merchantId, teamId, verificationTime }

    /// Reads a saved request body exactly as the route does (unknown and repeated fields refused).
    public static func decode(_ bytes: [UInt8]) throws(StrictJSONBody.Refusal) -> AppleVerifyRequest {
        try StrictJSONBody.decode(AppleVerifyRequest.self, from: bytes)
    }
}

/// The body of `POST /v1/apple/session-transcript`.
struct SessionTranscriptRequest: KnownFields {
    let nonce: String
    let merchantId: String?
    let teamId: String?
    let pkRHash: String?

    enum CodingKeys: String, CodingKey, CaseIterable { case nonce, merchantId, teamId, pkRHash }
}

/// The body of `POST /v1/apple/nonces` (optional).
struct AppleNonceRequest: KnownFields {
    let merchantId: String?
    let teamId: String?

    enum CodingKeys: String, CodingKey, CaseIterable { case merchantId, teamId }
}
