import DigitalCredentials
import StrictJSON

/// The body of `POST /v1/presentations/requests`: the page's origin and what to ask for (the documents shorthand,
/// or a DCQL query), as on the per-protocol routes.
struct PresentationRequestBody: KnownFields {
    let origin: String
    let documents: [RequestedDocument]?
    let dcql_query: RawJSON?
    /// OpenID4VP `transaction_data` (offered over OpenID4VP only: Annex C cannot carry it).
    let transaction_data: RawJSON?
    let transactionDataReport: String?

    enum CodingKeys: String, CodingKey, CaseIterable { case origin, documents, dcql_query, transaction_data, transactionDataReport }
}

/// The body of `POST /v1/presentations/verify`: the session and the `DigitalCredential` as the page received it.
struct PresentationVerifyBody: KnownFields {
    let sessionId: String
    let credential: DigitalCredentialResponse
    let verificationTime: String?

    enum CodingKeys: String, CodingKey, CaseIterable { case sessionId, credential, verificationTime }
}
