import StrictJSON

/// The body of `POST /v1/oid4vp/requests`.
struct OpenID4VPRequestBody: KnownFields {
    let origin: String?
    let documents: [RequestedDocument]?
    /// The caller's own DCQL query for mso_mdoc, instead of `documents`.
    let dcql_query: RawJSON?
    /// `dc_api.jwt` (default) or `dc_api`.
    let responseMode: String?
    /// Signed request objects (default), or unsigned ones.
    let signed: Bool?
    /// `dc_api` (default) or `cross-device`.
    let flow: String?
    /// Cross-device: where the wallet sends the user after answering (an https URL on an allowed origin).
    let redirectUri: String?
    /// Cross-device: how the wallet fetches the request object, `get` or `post` (default `oid4vp.requestUriMethod`).
    let requestUriMethod: String?
    /// Typed objects the holder's key must approve (OpenID4VP 1.0 §5.1), sent as `transaction_data`.
    let transaction_data: RawJSON?
    /// Whether reports carry each approved entry's object (`objects`) or only its type and hash (`hashes`, default).
    let transactionDataReport: String?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case origin, documents, dcql_query, responseMode, signed, flow, redirectUri, requestUriMethod, transaction_data,
             transactionDataReport
    }
}

/// The body of `POST /v1/oid4vp/verify`: the session, and `credential.data` as the browser returned it.
struct OpenID4VPVerifyBody: KnownFields {
    let sessionId: String
    let response: OpenID4VPWalletData
    let verificationTime: String?

    enum CodingKeys: String, CodingKey, CaseIterable { case sessionId, response, verificationTime }
}
