import DigitalCredentials
import StrictJSON

/// The body of `POST /demo/requests`: `{}` (or nothing) for the default mDL elements, or `documents` as on
/// `/v1/presentations/requests`. The origin is never in the body: it is the page's own (``DemoPageOrigin``).
struct DemoRequestBody: KnownFields {
    let documents: [RequestedDocument]?

    enum CodingKeys: String, CodingKey, CaseIterable { case documents }
}

/// The body of `POST /demo/verify`: the session the page was given and the `DigitalCredential` (`protocol`, `data`)
/// as the browser returned it. No `verificationTime`.
struct DemoVerifyBody: KnownFields {
    let sessionId: String
    let credential: DigitalCredentialResponse

    enum CodingKeys: String, CodingKey, CaseIterable { case sessionId, credential }
}
